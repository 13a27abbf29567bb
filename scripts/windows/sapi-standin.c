/* A stand-in for SAPI 5's voice (the SpVoice class), for hector's tests under wine only
 * (never shipped): wine 8's own SpVoice answers E_NOTIMPL to Speak and SetRate. Registered in
 * the test's wine prefix as SpVoice's in-process server, it appends one UTF-8 line per call
 * hector makes to the file named by HECTOR_SAPI_STANDIN_LOG:
 *   speak<TAB>flags<TAB>text | stop<TAB>flags | rate<TAB>n | volume<TAB>n | status
 * It speaks nothing, so it is never speaking. Every other ISpVoice method answers E_NOTIMPL.
 * Build: x86_64-w64-mingw32-gcc -O2 -Wall -shared -s -o sapi-standin.dll sapi-standin.c -luuid */
#define COBJMACROS
#include <windows.h>
#include <sapi.h>
#include <stdio.h>

static const IID iid_voice = {0x6c44df74, 0x72b9, 0x4992, {0xa1, 0xec, 0xef, 0x99, 0x6e, 0x04, 0x22, 0xd4}};

static void note(const char *head, const wchar_t *text)
{
    wchar_t path[MAX_PATH];
    DWORD n = GetEnvironmentVariableW(L"HECTOR_SAPI_STANDIN_LOG", path, MAX_PATH);
    if (n == 0 || n >= MAX_PATH)
        return;
    static char line[16384];
    int len = snprintf(line, sizeof line, "%s", head);
    if (text) {
        int u = WideCharToMultiByte(CP_UTF8, 0, text, -1, line + len, (int)sizeof line - len - 1,
                                    NULL, NULL);
        len += u > 0 ? u - 1 : 0;
    }
    line[len++] = '\n';
    HANDLE f = CreateFileW(path, FILE_APPEND_DATA, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                           OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (f == INVALID_HANDLE_VALUE)
        return;
    DWORD written;
    WriteFile(f, line, (DWORD)len, &written, NULL);
    CloseHandle(f);
}

/* On x64 the caller removes the arguments: one function answers every method not made here. */
static HRESULT STDMETHODCALLTYPE not_implemented(void) { return E_NOTIMPL; }

static ISpVoice voice;

static HRESULT STDMETHODCALLTYPE voice_query(ISpVoice *self, REFIID riid, void **out)
{
    if (IsEqualIID(riid, &IID_IUnknown) || IsEqualIID(riid, &iid_voice)) {
        *out = self;
        return S_OK;
    }
    *out = NULL;
    return E_NOINTERFACE;
}
/* One static object: counting references would free nothing. */
static ULONG STDMETHODCALLTYPE voice_add_ref(ISpVoice *self) { return 2; }
static ULONG STDMETHODCALLTYPE voice_release(ISpVoice *self) { return 1; }

static HRESULT STDMETHODCALLTYPE voice_speak(ISpVoice *self, LPCWSTR text, DWORD flags, ULONG *stream)
{
    char head[64];
    if (text) {
        snprintf(head, sizeof head, "speak\t%lu\t", (unsigned long)flags);
        note(head, text);
    } else {
        snprintf(head, sizeof head, "stop\t%lu", (unsigned long)flags);
        note(head, NULL);
    }
    if (stream)
        *stream = 1;
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE voice_status(ISpVoice *self, SPVOICESTATUS *status, LPWSTR *bookmark)
{
    note("status", NULL);
    if (status) {
        ZeroMemory(status, sizeof *status);
        status->dwRunningState = SPRS_DONE;
    }
    if (bookmark)
        *bookmark = NULL;
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE voice_rate(ISpVoice *self, LONG rate)
{
    char head[64];
    snprintf(head, sizeof head, "rate\t%ld", (long)rate);
    note(head, NULL);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE voice_volume(ISpVoice *self, USHORT volume)
{
    char head[64];
    snprintf(head, sizeof head, "volume\t%u", (unsigned)volume);
    note(head, NULL);
    return S_OK;
}

static ISpVoiceVtbl voice_methods;

static void make_voice(void)
{
    if (voice.lpVtbl)
        return;
    void **slot = (void **)&voice_methods;
    for (size_t i = 0; i < sizeof voice_methods / sizeof *slot; i++)
        slot[i] = (void *)not_implemented;
    voice_methods.QueryInterface = voice_query;
    voice_methods.AddRef = voice_add_ref;
    voice_methods.Release = voice_release;
    voice_methods.Speak = voice_speak;
    voice_methods.GetStatus = voice_status;
    voice_methods.SetRate = voice_rate;
    voice_methods.SetVolume = voice_volume;
    voice.lpVtbl = &voice_methods;
}

static HRESULT STDMETHODCALLTYPE factory_query(IClassFactory *self, REFIID riid, void **out)
{
    if (IsEqualIID(riid, &IID_IUnknown) || IsEqualIID(riid, &IID_IClassFactory)) {
        *out = self;
        return S_OK;
    }
    *out = NULL;
    return E_NOINTERFACE;
}
static ULONG STDMETHODCALLTYPE factory_add_ref(IClassFactory *self) { return 2; }
static ULONG STDMETHODCALLTYPE factory_release(IClassFactory *self) { return 1; }
static HRESULT STDMETHODCALLTYPE factory_create(IClassFactory *self, IUnknown *outer, REFIID riid, void **out)
{
    if (outer) {
        *out = NULL;
        return CLASS_E_NOAGGREGATION;
    }
    make_voice();
    return voice_query(&voice, riid, out);
}
static HRESULT STDMETHODCALLTYPE factory_lock(IClassFactory *self, BOOL lock) { return S_OK; }

static IClassFactoryVtbl factory_methods = {factory_query, factory_add_ref, factory_release,
                                            factory_create, factory_lock};
static IClassFactory factory = {&factory_methods};

__declspec(dllexport) HRESULT STDAPICALLTYPE DllGetClassObject(REFCLSID clsid, REFIID riid, void **out)
{
    return factory_query(&factory, riid, out);
}

__declspec(dllexport) HRESULT STDAPICALLTYPE DllCanUnloadNow(void) { return S_FALSE; }
