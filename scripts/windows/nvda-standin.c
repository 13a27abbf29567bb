/* A stand-in for NVDA's controller client, nvdaControllerClient64.dll, for hector's tests
 * under wine only (never shipped). It has the functions hector calls, with the types of
 * NVDA's nvdaController.h (each returns 0 for success, else a Windows error code), and instead
 * of reaching NVDA it appends one UTF-8 line per call to the file named by the environment
 * variable HECTOR_NVDA_STANDIN_LOG:
 *   test | speak<TAB>text | braille<TAB>text | cancel
 * Without that variable it answers every call as the real client does when NVDA is not
 * running: 1717 (RPC_S_UNKNOWN_IF).
 *
 * Built as it is, it is a client of NVDA 2024.1 or later: it also has speakSsml and
 * setOnSsmlMarkReachedCallback, and answers them as NVDA does. Called synchronously,
 * speakSsml "speaks" for HECTOR_NVDA_STANDIN_MS_PER_CHAR milliseconds (60 when unset) per
 * letter of the SSML's text, then reports each <mark> through the callback, on the calling
 * thread, and returns; cancelSpeech ends it at once. Those lines carry the time in
 * milliseconds (QueryPerformanceCounter, the clock of the winmm stand-in too):
 *   ssml<TAB>ms<TAB>text | mark<TAB>ms<TAB>name | end<TAB>ms | cancelled<TAB>ms
 * and cancel is logged as cancel<TAB>ms. With HECTOR_NVDA_STANDIN_REFUSE_SSML set, speakSsml
 * answers 1717 as an NVDA older than its client does.
 * Built with -DOLD_CLIENT it is a client from before 2024.1: the four first functions only.
 * Build: x86_64-w64-mingw32-gcc -O2 -Wall -shared -s -o nvdaControllerClient64.dll nvda-standin.c */
#include <windows.h>

#define NOT_RUNNING 1717
#define EXPORT __declspec(dllexport) unsigned long __stdcall

/* Appends "kind", then "<TAB>ms" when at is not negative, then "<TAB>text" when there is
 * text, and a newline to the log; 0, or why it could not. */
static unsigned long note_at(const char *kind, long long at, const wchar_t *text)
{
    wchar_t path[MAX_PATH];
    DWORD n = GetEnvironmentVariableW(L"HECTOR_NVDA_STANDIN_LOG", path, MAX_PATH);
    if (n == 0 || n >= MAX_PATH)
        return NOT_RUNNING;
    char line[16384];
    int len = lstrlenA(kind);
    CopyMemory(line, kind, len);
    if (at >= 0)
        len += wsprintfA(line + len, "\t%I64d", at);
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

static unsigned long note(const char *kind, const wchar_t *text) { return note_at(kind, -1, text); }

/* Milliseconds on the clock the winmm stand-in uses too. */
static long long now_ms(void)
{
    LARGE_INTEGER t, f;
    QueryPerformanceCounter(&t);
    QueryPerformanceFrequency(&f);
    return t.QuadPart * 1000 / f.QuadPart;
}

EXPORT nvdaController_testIfRunning(void) { return note("test", NULL); }

/* With HECTOR_NVDA_STANDIN_TIMED set, a line "spoken-at<TAB>ms" follows each speak line: when
 * the words were handed over, for the order of sounds and words of a client that does not
 * tell the end. */
EXPORT nvdaController_speakText(const wchar_t *text)
{
    unsigned long r = note("speak", text);
    if (r == 0 && GetEnvironmentVariableW(L"HECTOR_NVDA_STANDIN_TIMED", NULL, 0) > 0)
        r = note_at("spoken-at", now_ms(), NULL);
    return r;
}
EXPORT nvdaController_brailleMessage(const wchar_t *text) { return note("braille", text); }

#ifdef OLD_CLIENT
EXPORT nvdaController_cancelSpeech(void) { return note("cancel", NULL); }
#else

typedef unsigned long(__stdcall *mark_reached)(const wchar_t *);
static mark_reached on_mark;
/* Set by cancelSpeech, waited on by a synchronous speakSsml. */
static HANDLE cancelled;

BOOL WINAPI DllMain(HINSTANCE module, DWORD reason, LPVOID reserved)
{
    (void)module;
    (void)reserved;
    if (reason == DLL_PROCESS_ATTACH)
        cancelled = CreateEventW(NULL, TRUE, FALSE, NULL);
    return TRUE;
}

EXPORT nvdaController_cancelSpeech(void)
{
    unsigned long status = note_at("cancel", now_ms(), NULL);
    SetEvent(cancelled);
    return status;
}

EXPORT nvdaController_setOnSsmlMarkReachedCallback(mark_reached callback)
{
    on_mark = callback;
    return 0;
}

/* The SSML's text without its tags (entities left as they are), and the names of its marks
 * one after another, each ended by a NUL. */
static int text_of(const wchar_t *ssml, wchar_t *text, int room, wchar_t *marks, int marks_room)
{
    int t = 0, m = 0, letters = 0;
    for (const wchar_t *p = ssml; *p; p++) {
        if (*p == L'<') {
            const wchar_t *end = wcschr(p, L'>');
            if (!end)
                break;
            if (wcsncmp(p, L"<mark name=\"", 12) == 0) {
                for (const wchar_t *q = p + 12; *q && *q != L'"' && m < marks_room - 2; q++)
                    marks[m++] = *q;
                marks[m++] = 0;
            }
            p = end;
            continue;
        }
        if (t < room - 1)
            text[t++] = *p;
        if (*p != L' ')
            letters++;
    }
    text[t] = 0;
    marks[m] = 0;
    return letters;
}

EXPORT nvdaController_speakSsml(const wchar_t *ssml, int symbol_level, int priority,
                                unsigned char asynchronous)
{
    (void)symbol_level;
    (void)priority;
    wchar_t path[8];
    if (GetEnvironmentVariableW(L"HECTOR_NVDA_STANDIN_LOG", path, 8) == 0)
        return NOT_RUNNING;
    if (GetEnvironmentVariableW(L"HECTOR_NVDA_STANDIN_REFUSE_SSML", path, 8) != 0)
        return NOT_RUNNING;
    static wchar_t text[8192], marks[1024];
    int letters = text_of(ssml, text, 8192, marks, 1024);
    if (asynchronous)
        return note_at("ssml-async", now_ms(), text);
    ResetEvent(cancelled);
    note_at("ssml", now_ms(), text);
    wchar_t rate[16];
    int per_letter = 60;
    if (GetEnvironmentVariableW(L"HECTOR_NVDA_STANDIN_MS_PER_CHAR", rate, 16) != 0)
        per_letter = _wtoi(rate);
    if (WaitForSingleObject(cancelled, (DWORD)(letters * per_letter)) == WAIT_OBJECT_0)
        return note_at("cancelled", now_ms(), NULL);
    for (const wchar_t *name = marks; *name; name += lstrlenW(name) + 1) {
        note_at("mark", now_ms(), name);
        if (on_mark)
            on_mark(name);
    }
    return note_at("end", now_ms(), NULL);
}
#endif
