// rck-as on C++: exceptions (landing pads, .gcc_except_table call-site
// ranges), virtual calls, templates, std::sort with a lambda, std::string.
// Built plain and through rck-as; identical output (rckas_test.py).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" uint64_t ctr_insns(void);
extern "C" uint64_t ctr_units(void);

struct Shape {
    virtual ~Shape() {}
    virtual long area() const = 0;
};
struct Rect : Shape {
    long w, h;
    Rect(long a, long b) : w(a), h(b) {}
    long area() const override { return w * h; }
};
struct Tri : Shape {
    long b, h;
    Tri(long x, long y) : b(x), h(y) {}
    long area() const override
    {
        if (b < 0)
            throw std::runtime_error("negative base " + std::to_string(b));
        return b * h / 2;
    }
};

template <typename T> static T clampsum(const std::vector<T> &v, T lo, T hi)
{
    T s = 0;
    for (T x : v)
        s += x < lo ? lo : (x > hi ? hi : x);
    return s;
}

__attribute__((noinline)) static long risky(int i)
{
    Tri t(i % 7 - 3, i);
    Rect r(i, i + 1);
    const Shape *s[2] = {&t, &r};
    return s[0]->area() + s[1]->area();
}

int main()
{
    std::vector<long> v;
    unsigned seed = 11;
    for (int i = 0; i < 300; i++) {
        seed = seed * 1103515245u + 12345u;
        v.push_back((long)(seed >> 9) % 2001 - 1000);
    }
    std::sort(v.begin(), v.end(), [](long a, long b) {
        return (a & 15) != (b & 15) ? (a & 15) < (b & 15) : a > b;
    });
    std::printf("sorted %ld %ld %ld\n", v[0], v[150], v[299]);
    std::printf("clamp %ld\n", clampsum<long>(v, -300, 500));
    long ok = 0, thrown = 0;
    std::string last;
    for (int i = 0; i < 50; i++) {
        try {
            ok += risky(i);
        } catch (const std::exception &e) {
            thrown++;
            last = e.what();
        }
    }
    std::printf("exceptions %ld %ld %s\n", ok, thrown, last.c_str());
    std::fprintf(stderr, "counters %llu %llu\n",
                 (unsigned long long)ctr_insns(),
                 (unsigned long long)ctr_units());
    return 0;
}
