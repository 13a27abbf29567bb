/* A stand-in for winmm.dll's PlaySoundW, the one winmm function hector.exe calls, for hector's
 * tests under wine only (never shipped): wine without a sound device plays nothing, so when
 * a sound is heard cannot be observed there. Loaded in place of wine's own winmm (beside
 * hector.exe, with WINEDLLOVERRIDES=winmm=n,b), it "plays" a WAV from memory for as long as
 * its data lasts and appends to the file named by HECTOR_SOUND_STANDIN_LOG (the NVDA
 * stand-in's log, so that both tell one story), with the time in milliseconds on the NVDA
 * stand-in's clock (QueryPerformanceCounter):
 *   sound<TAB>ms<TAB>length in ms     when it starts
 *   sound-end<TAB>ms                  when it has ended
 * Build: x86_64-w64-mingw32-gcc -O2 -Wall -shared -s -o winmm.dll winmm-standin.c */
/* Without mmsystem.h, whose PlaySoundW is an import. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

static long long now_ms(void)
{
    LARGE_INTEGER t, f;
    QueryPerformanceCounter(&t);
    QueryPerformanceFrequency(&f);
    return t.QuadPart * 1000 / f.QuadPart;
}

static void note(const char *line, int len)
{
    wchar_t path[MAX_PATH];
    DWORD n = GetEnvironmentVariableW(L"HECTOR_SOUND_STANDIN_LOG", path, MAX_PATH);
    if (n == 0 || n >= MAX_PATH)
        return;
    HANDLE f = CreateFileW(path, FILE_APPEND_DATA, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                           OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (f == INVALID_HANDLE_VALUE)
        return;
    DWORD written = 0;
    WriteFile(f, line, (DWORD)len, &written, NULL);
    CloseHandle(f);
}

static unsigned le32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (unsigned)p[3] << 24; }

/* The length of a PCM WAV image in milliseconds: its data over its bytes per second. */
static DWORD length_ms(const unsigned char *wav)
{
    if (memcmp(wav, "RIFF", 4) != 0 || memcmp(wav + 8, "WAVE", 4) != 0)
        return 0;
    unsigned size = le32(wav + 4) + 8, at = 12, per_second = 0;
    while (at + 8 <= size) {
        unsigned chunk = le32(wav + at + 4);
        if (memcmp(wav + at, "fmt ", 4) == 0 && chunk >= 12)
            per_second = le32(wav + at + 16);
        if (memcmp(wav + at, "data", 4) == 0)
            return per_second ? (DWORD)((unsigned long long)chunk * 1000 / per_second) : 0;
        at += 8 + chunk + (chunk & 1);
    }
    return 0;
}

__declspec(dllexport) BOOL WINAPI PlaySoundW(const wchar_t *sound, HMODULE module, DWORD flags)
{
    (void)module;
    /* No sound named: stop what plays; nothing does. */
    if (!sound || !(flags & 0x0004 /* SND_MEMORY */))
        return TRUE;
    DWORD length = length_ms((const unsigned char *)sound);
    char line[96];
    note(line, wsprintfA(line, "sound\t%I64d\t%lu\n", now_ms(), length));
    Sleep(length);
    note(line, wsprintfA(line, "sound-end\t%I64d\n", now_ms()));
    return TRUE;
}
