import TroubleshootKB
import CMimalloc

// Linked for its malloc (see Package.swift); naming one of its functions keeps the library among
// the executable's dependencies whatever the linker's --as-needed setting.
_ = mi_version()
KBCommandLine.runAsProcess()
