import TroubleshootKB
print(TroubleshootKBVersion.string)
