Feature: a command that never ends
  @attempt-1
  Scenario: sleeps forever
    When I run "sleep 86400"
    Then the exit status is 0
