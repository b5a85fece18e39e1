; Included by electron-builder's NSIS installer (electron-builder.yml: nsis.include). Explorer picks a handler by a
; file's last extension, so a backup (`handbook-2026-03-01.quire.db`) is a `.db` file to it: Quire adds itself to
; "Open with" for `.db` (OpenWithProgids) without taking over the default application, and removes that on uninstall.
; The app receives the file in argv (src-main/electron/workspaceFileArgs.ts).

!macro customInstall
  WriteRegStr SHELL_CONTEXT "Software\Classes\Quire.Workspace" "" "Quire workspace"
  WriteRegStr SHELL_CONTEXT "Software\Classes\Quire.Workspace\DefaultIcon" "" "$appExe,0"
  WriteRegStr SHELL_CONTEXT "Software\Classes\Quire.Workspace\shell\open\command" "" '"$appExe" "%1"'
  WriteRegNone SHELL_CONTEXT "Software\Classes\.db\OpenWithProgids" "Quire.Workspace"
  System::Call 'shell32::SHChangeNotify(i, i, i, i) v (0x08000000, 0, 0, 0)'
!macroend

!macro customUnInstall
  DeleteRegValue SHELL_CONTEXT "Software\Classes\.db\OpenWithProgids" "Quire.Workspace"
  DeleteRegKey SHELL_CONTEXT "Software\Classes\Quire.Workspace"
  System::Call 'shell32::SHChangeNotify(i, i, i, i) v (0x08000000, 0, 0, 0)'
!macroend
