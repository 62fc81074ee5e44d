Feature: a command that prints gigabytes
  @attempt-1
  Scenario: two gigabytes of zeros
    When I run "head -c 2147483648 /dev/zero"
    Then the exit status is 0
    And standard output is empty
