Feature: outside
  Scenario: never read
    When I run "true"
