; The installer of hector for 64-bit Windows, built by scripts/package-windows:
;   makensis -DVERSION=0.1.0 -DSTAGE=folder -DOUTFILE=hector-0.1.0-setup.exe hector.nsi
; STAGE holds what is installed (hector.exe, the NVDA client, tables, docs, licences).
;
; For a screen-reader user first: only NSIS' standard pages (plain Win32 dialogs that NVDA
; and JAWS read, driven by Tab, the arrow keys and Enter), no custom UI, no images. /S
; installs silently, /D=FOLDER (last on the line) chooses the folder. Per user: no
; administrator, no UAC prompt; the player's games are never touched.

Unicode true
; 64-bit stub and plugins: hector.exe is 64-bit, and so is wine64, which runs the tests.
Target amd64-unicode
SetCompressor /SOLID lzma
!ifdef FAST
  ; Test builds: the compression that takes seconds rather than a minute.
  SetCompressor /SOLID zlib
!endif
RequestExecutionLevel user

Name "hector ${VERSION}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\hector"
InstallDirRegKey HKCU "Software\hector" "InstallDir"
BrandingText "hector ${VERSION}"
; The list of what was done stays on screen as text a screen reader reads line by line.
ShowInstDetails show
ShowUninstDetails show

!include "LogicLib.nsh"
!include "WinMessages.nsh"
!include "StrFunc.nsh"
${StrStr}
${UnStrStr}
${UnStrRep}

!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\hector"
!define MENU "$SMPROGRAMS\hector"

Page directory
Page instfiles
UninstPage uninstConfirm
UninstPage instfiles

Section "hector" main
  SetShellVarContext current
  SetOutPath "$INSTDIR"
  File "${STAGE}\hector.exe"
  File "${STAGE}\nvdaControllerClient64.dll"
  File "${STAGE}\*.txt"
  SetOutPath "$INSTDIR\docs"
  File /r "${STAGE}\docs\*"
  SetOutPath "$INSTDIR\tables"
  File /r "${STAGE}\tables\*"
  ; The sound cues, which hector.exe plays from here.
  SetOutPath "$INSTDIR\sounds"
  File /r "${STAGE}\sounds\*"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  ; Start menu: hector is a console program; cmd /k gives it a console window that stays
  ; open, with a prompt in the player's own folder, after hector ends.
  CreateDirectory "${MENU}"
  CreateShortcut "${MENU}\Play chess with hector.lnk" "$SYSDIR\cmd.exe" \
    '/k "$INSTDIR\hector.exe" play --screen-reader' "$INSTDIR\hector.exe" 0 SW_SHOWNORMAL "" \
    "A spoken game in line mode, for screen readers"
  CreateShortcut "${MENU}\hector.lnk" "$SYSDIR\cmd.exe" '/k "$INSTDIR\hector.exe" --help' \
    "$INSTDIR\hector.exe" 0 SW_SHOWNORMAL "" "A console with hector's commands"
  ; Notepad, since Windows knows no program for .md files by itself.
  CreateShortcut "${MENU}\Read me.lnk" "$WINDIR\notepad.exe" '"$INSTDIR\docs\README.md"' \
    "" 0 SW_SHOWNORMAL "" "hector's README"
  CreateShortcut "${MENU}\Uninstall hector.lnk" "$INSTDIR\uninstall.exe"

  Call AddToPath

  WriteRegStr HKCU "Software\hector" "InstallDir" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "hector ${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "hector"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\hector.exe"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  DetailPrint "hector is installed. In a new console window, type: hector play"
SectionEnd

; Tells running programs (Explorer, and the consoles it starts) that the user's environment
; changed, so that a new console finds hector without logging off.
!macro BROADCAST_ENVIRONMENT
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
!macroend

; $INSTDIR at the end of the user's Path (HKCU\Environment), once. NSIS strings hold 1024
; characters here: a Path near that long would be read back cut off, so it is left as it is
; and the player told what to add.
Function AddToPath
  ReadRegStr $0 HKCU "Environment" "Path"
  StrLen $1 "$0"
  ${If} $1 > 900
    DetailPrint "Your Path is long: add $INSTDIR to it yourself to type hector anywhere."
    Return
  ${EndIf}
  ${StrStr} $2 ";$0;" ";$INSTDIR;"
  ${If} $2 != ""
    Return
  ${EndIf}
  ${If} "$0" == ""
    WriteRegExpandStr HKCU "Environment" "Path" "$INSTDIR"
  ${Else}
    WriteRegExpandStr HKCU "Environment" "Path" "$0;$INSTDIR"
  ${EndIf}
  !insertmacro BROADCAST_ENVIRONMENT
FunctionEnd

Function un.RemoveFromPath
  ReadRegStr $0 HKCU "Environment" "Path"
  StrLen $1 "$0"
  ${If} $1 > 900
    DetailPrint "Your Path is long: remove $INSTDIR from it yourself."
    Return
  ${EndIf}
  ${UnStrStr} $2 ";$0;" ";$INSTDIR;"
  ${If} $2 == ""
    Return
  ${EndIf}
  ; Between semicolons on both sides, then the two added ones taken off again.
  ${UnStrRep} $0 ";$0;" ";$INSTDIR;" ";"
  StrCpy $0 "$0" -1 1
  ${If} "$0" == ""
    DeleteRegValue HKCU "Environment" "Path"
  ${Else}
    WriteRegExpandStr HKCU "Environment" "Path" "$0"
  ${EndIf}
  !insertmacro BROADCAST_ENVIRONMENT
FunctionEnd

Section "Uninstall"
  SetShellVarContext current
  ; Out of the folder before it is removed (a folder in use stays).
  SetOutPath "$TEMP"
  ; Only what the installer wrote. The player's games, progress and configuration live in
  ; %APPDATA%\hector and stay.
  Delete "$INSTDIR\hector.exe"
  Delete "$INSTDIR\nvdaControllerClient64.dll"
  Delete "$INSTDIR\COPYING.txt"
  Delete "$INSTDIR\nvdaControllerClient64-LICENSE.txt"
  RMDir /r "$INSTDIR\docs"
  RMDir /r "$INSTDIR\tables"
  RMDir /r "$INSTDIR\sounds"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  Delete "${MENU}\Play chess with hector.lnk"
  Delete "${MENU}\hector.lnk"
  Delete "${MENU}\Read me.lnk"
  Delete "${MENU}\Uninstall hector.lnk"
  RMDir "${MENU}"
  Call un.RemoveFromPath
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
  DeleteRegKey HKCU "Software\hector"
  DetailPrint "hector is removed. Your games stay in $APPDATA\hector."
SectionEnd
