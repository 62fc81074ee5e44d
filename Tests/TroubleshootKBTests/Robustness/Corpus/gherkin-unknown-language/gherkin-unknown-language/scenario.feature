# language: xx-klingon
Feature: unknown language
  @attempt-1
  Scenario: one
    When I run "true"
