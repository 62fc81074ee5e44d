Feature: a command that forks
  @attempt-1
  Scenario: background children outlive the command
    When I run "sh -c 'sleep 100000 & echo started'"
    Then the exit status is 0
    When I run "sh -c '(sleep 2; touch @MARKER@) >/dev/null 2>&1 &'"
    Then the exit status is 0
