/* The counted loop (tests/rckas/counts.py): its own file, so that the
 * uninstrumented object's disassembly shows its body alone. */
unsigned long loop(unsigned long n, unsigned long x)
{
    for (unsigned long i = 0; i < n; i++)
        x = (x * 2654435761u + i) ^ (x >> 7);
    return x;
}
