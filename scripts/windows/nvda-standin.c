/* A stand-in for NVDA's controller client, nvdaControllerClient64.dll, for hector's tests
 * under wine only (never shipped). It has the four functions hector calls, with the types of
 * NVDA's nvdaController.h (each returns 0 for success, else a Windows error code), and instead
 * of reaching NVDA it appends one UTF-8 line per call to the file named by the environment
 * variable HECTOR_NVDA_STANDIN_LOG:
 *   test | speak<TAB>text | braille<TAB>text | cancel
 * Without that variable it answers every call as the real client does when NVDA is not
 * running: 1717 (RPC_S_UNKNOWN_IF).
 * Build: x86_64-w64-mingw32-gcc -O2 -Wall -shared -s -o nvdaControllerClient64.dll nvda-standin.c */
#include <windows.h>

#define NOT_RUNNING 1717
#define EXPORT __declspec(dllexport) unsigned long __stdcall

/* Appends "kind" or "kind<TAB>text" and a newline to the log; 0, or why it could not. */
static unsigned long note(const char *kind, const wchar_t *text)
{
    wchar_t path[MAX_PATH];
    DWORD n = GetEnvironmentVariableW(L"HECTOR_NVDA_STANDIN_LOG", path, MAX_PATH);
    if (n == 0 || n >= MAX_PATH)
        return NOT_RUNNING;
    static char line[16384];
    int len = lstrlenA(kind);
    CopyMemory(line, kind, len);
    if (text) {
        line[len++] = '\t';
        int room = (int)sizeof line - len - 1;
        int u = WideCharToMultiByte(CP_UTF8, 0, text, -1, line + len, room, NULL, NULL);
        if (u <= 0)
            return GetLastError();
        len += u - 1; /* without its NUL */
    }
    line[len++] = '\n';
    HANDLE f = CreateFileW(path, FILE_APPEND_DATA, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                           OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (f == INVALID_HANDLE_VALUE)
        return GetLastError();
    DWORD written = 0;
    BOOL ok = WriteFile(f, line, (DWORD)len, &written, NULL);
    CloseHandle(f);
    return ok && written == (DWORD)len ? 0 : ERROR_WRITE_FAULT;
}

EXPORT nvdaController_testIfRunning(void) { return note("test", NULL); }
EXPORT nvdaController_speakText(const wchar_t *text) { return note("speak", text); }
EXPORT nvdaController_brailleMessage(const wchar_t *text) { return note("braille", text); }
EXPORT nvdaController_cancelSpeech(void) { return note("cancel", NULL); }
