import TroubleshootKB

KBCommandLine.runAsProcess()
