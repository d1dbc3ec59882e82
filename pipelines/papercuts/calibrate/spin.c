/* spin.c: the probe `papercuts calibrate` compiles at -O2, -O3 and -O3 -march=native and runs.
 *
 * Written for Papercuts from the descriptions in its seed documents (a busy-wait loop of
 * delay * multiplier PAUSE instructions kept alive by a compiler barrier; three ways to draw the
 * delay from an interval: a linear congruential generator, a hardware crc32 hash of a counter,
 * a cycle-counter read). No code comes from MySQL or MariaDB.
 *
 * It prints raw measurements, one record per line, tab-separated; the Python side computes
 * the statistics and writes the calibration files:
 *   relax    <pause|yield|barrier>                  what one spin of the loop executes
 *   feature  <rdtsc|crc32> <1|0>                     CPU features found at run time
 *   selftest crc32 <ok|failed|skipped>               hardware crc32 = the software fallback
 *   constant <name> <value per repetition, comma-separated>
 *   delay    <X> <calls> <µs per call, per repetition>
 *   draw     <variant> <excluded|included> <calls> <ns per call, per repetition> <mean X drawn>
 *
 * Usage: spin [--constants] [--max-delay N] [--multiplier M] [--delay-calls C]
 *             [--draw-calls C] [--reps R] [--n N]
 * Build with -DSPIN_PORTABLE to force the fallbacks a CPU without PAUSE, rdtsc or crc32 uses.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) && !defined(SPIN_PORTABLE)
#define SPIN_X86 1
#include <cpuid.h>
#endif

#define MAX_REPS 101

/* ---- the spin: one relax per iteration, never optimised away ---- */

#if defined(SPIN_X86)
#define RELAX_NAME "pause"
static inline void relax(void) { __asm__ __volatile__("pause" ::: "memory"); }
#elif defined(__aarch64__) && !defined(SPIN_PORTABLE)
#define RELAX_NAME "yield"
static inline void relax(void) { __asm__ __volatile__("yield" ::: "memory"); }
#else
#define RELAX_NAME "barrier"
/* A compiler barrier: the loop stays, and nothing else runs in it. */
static inline void relax(void) { __asm__ __volatile__("" ::: "memory"); }
#endif

__attribute__((noinline)) static void spin_delay(uint64_t delay, uint64_t multiplier) {
    for (uint64_t i = 0; i < delay * multiplier; i++) {
        relax();
    }
}

/* ---- clocks ---- */

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int have_rdtsc = 0;
static int have_crc32 = 0;

#if defined(SPIN_X86)
static void detect(void) {
    unsigned a, b, c, d;
    if (__get_cpuid(1, &a, &b, &c, &d)) {
        have_rdtsc = (d >> 4) & 1;   /* CPUID.1:EDX.TSC */
        have_crc32 = (c >> 20) & 1;  /* CPUID.1:ECX.SSE4_2 */
    }
}

static inline uint64_t rdtsc(void) {
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

__attribute__((target("sse4.2"))) static uint32_t crc32_hw(uint32_t crc, uint64_t value) {
    return (uint32_t)__builtin_ia32_crc32di(crc, value);
}
#else
static void detect(void) {}
static inline uint64_t rdtsc(void) { return 0; }
static uint32_t crc32_hw(uint32_t crc, uint64_t value) { (void)value; return crc; }
#endif

/* The cycle counter where there is one, else the monotonic clock in ns. */
static inline uint64_t cycles(void) { return have_rdtsc ? rdtsc() : now_ns(); }

/* CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) one bit at a time: the fallback
 * without a crc32 instruction, and the reference the instruction is checked against. */
static uint32_t crc32_sw(uint32_t crc, uint64_t value) {
    for (int i = 0; i < 64; i++) {
        crc ^= (uint32_t)(value >> i) & 1u;
        crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    }
    return crc;
}

/* ---- three ways to draw X from [0, n) or [0, n] ---- */

static uint64_t lcg_state = 88172645463325252ull;
static uint64_t counter = 0;

__attribute__((noinline)) static uint64_t draw_lcg(uint64_t n, uint64_t inclusive) {
    lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
    return (lcg_state >> 33) % (n + inclusive);
}

__attribute__((noinline)) static uint64_t draw_crc32_hw(uint64_t n, uint64_t inclusive) {
    return crc32_hw(0xFFFFFFFFu, ++counter) % (n + inclusive);
}

__attribute__((noinline)) static uint64_t draw_crc32_sw(uint64_t n, uint64_t inclusive) {
    return crc32_sw(0xFFFFFFFFu, ++counter) % (n + inclusive);
}

__attribute__((noinline)) static uint64_t draw_cycles(uint64_t n, uint64_t inclusive) {
    uint64_t x = cycles();
    x ^= x >> 31;                     /* spread the fast-moving low bits over the word */
    x *= 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return x % (n + inclusive);
}

/* ---- measurements ---- */

struct options {
    int constants;
    uint64_t max_delay, multiplier, delay_calls, draw_calls, n;
    int reps;
};

static void print_values(const double *v, int count) {
    for (int i = 0; i < count; i++) {
        printf("%s%.6g", i ? "," : "", v[i]);
    }
}

/* Repetitions outside, delays (and draw variants) inside: a burst of noise from other work on
 * the machine hits every X alike instead of spoiling one. */
static double delay_us[1001][MAX_REPS];

static void measure_delays(const struct options *o) {
    for (uint64_t x = 0; x <= o->max_delay; x++) {
        for (uint64_t c = 0; c < o->delay_calls / 10 + 1; c++) {
            spin_delay(x, o->multiplier);  /* warm up */
        }
    }
    for (int r = 0; r < o->reps; r++) {
        for (uint64_t x = 0; x <= o->max_delay; x++) {
            uint64_t t0 = now_ns();
            for (uint64_t c = 0; c < o->delay_calls; c++) {
                spin_delay(x, o->multiplier);
            }
            delay_us[x][r] = (double)(now_ns() - t0) / 1000.0 / (double)o->delay_calls;
        }
    }
    for (uint64_t x = 0; x <= o->max_delay; x++) {
        printf("delay\t%llu\t%llu\t", (unsigned long long)x, (unsigned long long)o->delay_calls);
        print_values(delay_us[x], o->reps);
        printf("\n");
    }
}

typedef uint64_t (*draw_fn)(uint64_t, uint64_t);

struct variant {
    const char *name;
    draw_fn draw;
    double ns[2][MAX_REPS];
    uint64_t sum[2];
};

static void measure_draws(struct variant *v, int count, const struct options *o) {
    for (int i = 0; i < count; i++) {
        for (uint64_t c = 0; c < o->draw_calls / 10; c++) {
            v[i].sum[c & 1] += v[i].draw(o->n, c & 1);  /* warm up */
        }
        v[i].sum[0] = v[i].sum[1] = 0;
    }
    for (int r = 0; r < o->reps; r++) {
        for (int i = 0; i < count; i++) {
            for (uint64_t inclusive = 0; inclusive <= 1; inclusive++) {
                uint64_t t0 = now_ns(), sum = 0;
                for (uint64_t c = 0; c < o->draw_calls; c++) {
                    sum += v[i].draw(o->n, inclusive);
                }
                v[i].ns[inclusive][r] = (double)(now_ns() - t0) / (double)o->draw_calls;
                v[i].sum[inclusive] += sum;
            }
        }
    }
    for (int i = 0; i < count; i++) {
        for (int inclusive = 0; inclusive <= 1; inclusive++) {
            printf("draw\t%s\t%s\t%llu\t", v[i].name, inclusive ? "included" : "excluded",
                   (unsigned long long)o->draw_calls);
            print_values(v[i].ns[inclusive], o->reps);
            printf("\t%.6g\n", (double)v[i].sum[inclusive] / ((double)o->draw_calls * o->reps));
        }
    }
}

static void measure_constants(const struct options *o) {
    double v[MAX_REPS] = {0};
    const int pauses = 10000;
    for (int r = 0; r < o->reps; r++) {
        uint64_t t0 = now_ns();
        for (int i = 0; i < pauses; i++) {
            relax();
        }
        v[r] = (double)(now_ns() - t0) / pauses;
    }
    printf("constant\trelax_ns\t");
    print_values(v, o->reps);
    printf("\n");
    for (int r = 0; r < o->reps; r++) {
        uint64_t t0 = now_ns();
        for (int i = 0; i < 10000; i++) {
            (void)now_ns();
        }
        v[r] = (double)(now_ns() - t0) / 10000.0;
    }
    printf("constant\tclock_overhead_ns\t");
    print_values(v, o->reps);
    printf("\n");
    if (!have_rdtsc) {
        return;
    }
    for (int r = 0; r < o->reps; r++) {
        uint64_t c0 = rdtsc();
        for (int i = 0; i < pauses; i++) {
            relax();
        }
        v[r] = (double)(rdtsc() - c0) / pauses;
    }
    printf("constant\trelax_tsc_cycles\t");
    print_values(v, o->reps);
    printf("\n");
    int tsc_reps = o->reps < 5 ? o->reps : 5;
    for (int r = 0; r < tsc_reps; r++) {
        uint64_t t0 = now_ns(), c0 = rdtsc(), t1;
        while ((t1 = now_ns()) - t0 < 20000000u) {
        }
        v[r] = (double)(rdtsc() - c0) / (double)(t1 - t0);
    }
    printf("constant\ttsc_ghz\t");
    print_values(v, tsc_reps);
    printf("\n");
}

static uint64_t number(const char *flag, const char *text, uint64_t lo, uint64_t hi) {
    char *end;
    unsigned long long v = strtoull(text ? text : "", &end, 10);
    if (!text || *end || v < lo || v > hi) {
        fprintf(stderr, "spin: %s needs a whole number from %llu to %llu\n", flag,
                (unsigned long long)lo, (unsigned long long)hi);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv) {
    struct options o = {0, 6, 50, 1000, 100000, 6, 11};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--constants")) { o.constants = 1; continue; }
        if (!strcmp(a, "--max-delay")) o.max_delay = number(a, next, 0, 1000);
        else if (!strcmp(a, "--multiplier")) o.multiplier = number(a, next, 1, 100000);
        else if (!strcmp(a, "--delay-calls")) o.delay_calls = number(a, next, 1, 100000000);
        else if (!strcmp(a, "--draw-calls")) o.draw_calls = number(a, next, 10, 1000000000);
        else if (!strcmp(a, "--reps")) o.reps = (int)number(a, next, 1, MAX_REPS);
        else if (!strcmp(a, "--n")) o.n = number(a, next, 1, 1000000);
        else { fprintf(stderr, "spin: unknown option %s\n", a); return 2; }
        i++;
    }
    detect();
    printf("relax\t%s\n", RELAX_NAME);
    printf("feature\trdtsc\t%d\nfeature\tcrc32\t%d\n", have_rdtsc, have_crc32);
    int same = 1;
    for (uint64_t v = 0; have_crc32 && v < 1000; v++) {
        same &= crc32_hw(0xFFFFFFFFu, v * 0x9E3779B97F4A7C15ull) == crc32_sw(0xFFFFFFFFu, v * 0x9E3779B97F4A7C15ull);
    }
    printf("selftest\tcrc32\t%s\n", !have_crc32 ? "skipped" : same ? "ok" : "failed");
    if (o.constants) {
        measure_constants(&o);
    }
    measure_delays(&o);
    struct variant variants[] = {
        {"lcg", draw_lcg, {{0}}, {0}},
        {"crc32-counter", have_crc32 ? draw_crc32_hw : draw_crc32_sw, {{0}}, {0}},
        {"cycle-counter", draw_cycles, {{0}}, {0}},
    };
    measure_draws(variants, 3, &o);
    return 0;
}
