/* For the tests under wine only, never shipped: wine 8 has no bcryptprimitives.dll, whose
 * ProcessPrng Rust's standard library (1.78 and later) calls for random numbers, so every
 * Rust program stops before main. Real Windows 10 and 11 have it. This one answers with
 * advapi32's RtlGenRandom (exported as SystemFunction036), which wine has. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        /* RtlGenRandom takes a ULONG length: large requests go in pieces. */
        ULONG piece = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!SystemFunction036(data, piece))
            return FALSE;
        data += piece;
        len -= piece;
    }
    return TRUE;
}
