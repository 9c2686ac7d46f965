/* Triplex level generation by a plain depth-first search in C: the baseline of
 * benchmarks/triplex.py (issue 13, part 3).
 *
 * It does the work of boardlab's generator pipeline, step for step, without its search
 * refinements (no transposition table, no dead-region test):
 *
 *   1. every vector of counts of the 8 fixed Triplex shapes (2 dominoes, 2 straight and
 *      4 bent trominoes, in boardlab's set order) whose areas sum to W*H, with at least
 *      3 pieces and only shapes that fit the rectangle;
 *   2. one vector per orbit of the rectangle's symmetries (the lexicographically least);
 *   3. its tilings counted up to 2 by a depth-first search on a 64-bit board: cells are
 *      numbered column by column (bit x*H + y, W >= H), the first empty cell is always
 *      covered next, by the placements whose lowest cell it is (precomputed per cell);
 *   4. a level when there is exactly one tiling and it has no straight cut;
 *   5. the rotatable piece: a shape qualifies when every other orientation of it makes a
 *      vector with no tiling (searched with a limit of 1); among those the one whose
 *      complete search (the piece free to take any orientation) places the most pieces;
 *   6. the difficulty: that complete search's placements (or, with no rotatable piece,
 *      those of step 3).
 *
 * Usage: triplex_dfs [MAX_AREA] [--levels]
 * Prints one line per rectangle (area, then height descending, as boardlab's table):
 *   size W H vectors V levels L rotatable R cpu S
 * and with --levels one line per level: level W H c0 .. c7 (its count vector).
 *
 * Build: cc -O2 -march=native -o triplex_dfs triplex_dfs.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;

#define NS 8
static const int SIZE[NS] = {2, 2, 3, 3, 3, 3, 3, 3};
static const int CELLS[NS][3][2] = {
    {{0, 0}, {1, 0}, {0, 0}}, {{0, 0}, {0, 1}, {0, 0}}, {{0, 0}, {1, 0}, {2, 0}},
    {{0, 0}, {0, 1}, {1, 1}}, {{0, 0}, {1, 0}, {0, 1}}, {{0, 0}, {1, 0}, {1, 1}},
    {{1, 0}, {0, 1}, {1, 1}}, {{0, 0}, {0, 1}, {0, 2}},
};

static int W, H, N;
static u64 FULL;
static int n_at[64];           /* placements anchored at each bit */
static int p_shape[64][NS];
static u64 p_mask[64][NS];

/* the search's state */
static int cnt[NS];
static int free_left;          /* 1 while the rotatable piece is not placed */
static unsigned free_set;      /* the shapes it may take */
static int limit, found;
static long long steps;
static u64 stack[64], first[64];
static int first_len;

static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* The index of the shape with these cells after translation to x, y >= 0, or -1. */
static int shape_of(int cells[3][2], int size) {
    int x0 = 99, y0 = 99;
    for (int i = 0; i < size; i++) {
        if (cells[i][0] < x0) x0 = cells[i][0];
        if (cells[i][1] < y0) y0 = cells[i][1];
    }
    for (int s = 0; s < NS; s++) {
        if (SIZE[s] != size) continue;
        int all = 1;
        for (int i = 0; i < size && all; i++) {
            int hit = 0;
            for (int j = 0; j < size; j++)
                hit |= CELLS[s][j][0] == cells[i][0] - x0 && CELLS[s][j][1] == cells[i][1] - y0;
            all = hit;
        }
        if (all) return s;
    }
    return -1;
}

/* Symmetry k of the plane (k < 4: k quarter turns; then a mirror), on a cell. */
static void turn(int k, int x, int y, int *ox, int *oy) {
    for (int i = 0; i < k % 4; i++) {
        int t = x;
        x = -y;
        y = t;
    }
    if (k >= 4) x = -x;
    *ox = x;
    *oy = y;
}

static unsigned orientations(int s) {
    unsigned set = 0;
    for (int k = 0; k < 8; k++) {
        int c[3][2];
        for (int i = 0; i < SIZE[s]; i++) turn(k, CELLS[s][i][0], CELLS[s][i][1], &c[i][0], &c[i][1]);
        set |= 1u << shape_of(c, SIZE[s]);
    }
    return set;
}

static void build_placements(void) {
    memset(n_at, 0, sizeof n_at);
    for (int s = 0; s < NS; s++)
        for (int x = 0; x < W; x++)
            for (int y = 0; y < H; y++) {
                u64 m = 0;
                int ok = 1;
                for (int i = 0; i < SIZE[s]; i++) {
                    int cx = x + CELLS[s][i][0], cy = y + CELLS[s][i][1];
                    if (cx >= W || cy >= H) ok = 0;
                    else m |= 1ULL << (cx * H + cy);
                }
                if (!ok) continue;
                int a = __builtin_ctzll(m);
                p_shape[a][n_at[a]] = s;
                p_mask[a][n_at[a]++] = m;
            }
}

static void place(u64 occ, u64 m, int depth);

static void dfs(u64 occ, int depth) {
    int a = __builtin_ctzll(~occ);
    for (int i = 0; i < n_at[a]; i++) {
        u64 m = p_mask[a][i];
        if (m & occ) continue;
        int s = p_shape[a][i];
        if (cnt[s]) {
            cnt[s]--;
            place(occ | m, m, depth);
            cnt[s]++;
            if (found >= limit) return;
        }
        if (free_left && (free_set >> s & 1)) {
            free_left = 0;
            place(occ | m, m, depth);
            free_left = 1;
            if (found >= limit) return;
        }
    }
}

static void place(u64 occ, u64 m, int depth) {
    steps++;
    stack[depth] = m;
    if (occ == FULL) {
        if (found++ == 0) {
            memcpy(first, stack, (depth + 1) * sizeof(u64));
            first_len = depth + 1;
        }
        return;
    }
    dfs(occ, depth + 1);
}

/* Tilings of the rectangle by the counts in v (plus the free piece if set), up to lim. */
static int search(const int *v, int lim) {
    memcpy(cnt, v, sizeof cnt);
    limit = lim;
    found = 0;
    steps = 0;
    dfs(0, 0);
    return found;
}

static int straight_cut(void) {
    for (int x = 1; x < W; x++) {
        u64 left = (1ULL << (x * H)) - 1;
        int crossed = 0;
        for (int i = 0; i < first_len && !crossed; i++)
            crossed = (first[i] & left) && (first[i] & ~left);
        if (!crossed) return 1;
    }
    for (int y = 1; y < H; y++) {
        u64 top = 0;
        for (int x = 0; x < W; x++) top |= ((1ULL << y) - 1) << (x * H);
        int crossed = 0;
        for (int i = 0; i < first_len && !crossed; i++)
            crossed = (first[i] & top) && (first[i] & ~top);
        if (!crossed) return 1;
    }
    return 0;
}

/* perms[j][s]: the image of shape s under the rectangle's j-th symmetry */
static int perms[8][NS], n_perms;

static void build_perms(void) {
    n_perms = 0;
    int kinds = W == H ? 8 : 4;
    for (int j = 0; j < kinds; j++) {
        for (int s = 0; s < NS; s++) {
            int c[3][2];
            for (int i = 0; i < SIZE[s]; i++) {
                int x = CELLS[s][i][0], y = CELLS[s][i][1];
                /* the rectangle's symmetries: mirrors x, y, and for a square the transposes */
                int mx = j & 1, my = j >> 1 & 1, tr = j >> 2 & 1;
                if (tr) { int t = x; x = y; y = t; }
                c[i][0] = mx ? -x : x;
                c[i][1] = my ? -y : y;
            }
            perms[n_perms][s] = shape_of(c, SIZE[s]);
        }
        n_perms++;
    }
}

static int canonical(const int *v) {
    for (int j = 1; j < n_perms; j++) {
        int image[NS] = {0};
        for (int s = 0; s < NS; s++) image[perms[j][s]] += v[s];
        for (int s = 0; s < NS; s++) {
            if (image[s] < v[s]) return 0;
            if (image[s] > v[s]) break;
        }
    }
    return 1;
}

static int print_levels;
static long vectors, levels, rotatables;

static void level(const int *v) {
    int fixed_found = search(v, 2);
    long long fixed_steps = steps;
    if (fixed_found != 1 || straight_cut()) return;
    levels++;
    long long best = -1;
    for (int s = 0; s < NS; s++) {
        if (!v[s]) continue;
        unsigned others = orientations(s) & ~(1u << s);
        if (!others) continue;
        int qualifies = 1;
        for (int o = 0; o < NS && qualifies; o++) {
            if (!(others >> o & 1)) continue;
            int alt[NS];
            memcpy(alt, v, sizeof alt);
            alt[s]--;
            alt[o]++;
            qualifies = search(alt, 1) == 0;
        }
        if (!qualifies) continue;
        int rest[NS];
        memcpy(rest, v, sizeof rest);
        rest[s]--;
        free_set = orientations(s);
        free_left = 1;
        search(rest, 1 << 30);
        free_left = 0;
        if (steps > best) best = steps;
    }
    rotatables += best >= 0;
    long long difficulty = best >= 0 ? best : fixed_steps;
    (void)difficulty;
    if (print_levels) {
        printf("level %d %d", W, H);
        for (int s = 0; s < NS; s++) printf(" %d", v[s]);
        printf("\n");
    }
}

static int vec[NS];

static void vectors_from(int s, int rest, int pieces) {
    if (s == NS) {
        if (rest == 0 && pieces >= 3 && canonical(vec)) {
            vectors++;
            level(vec);
        }
        return;
    }
    int fits = 1;
    for (int i = 0; i < SIZE[s]; i++)
        if (CELLS[s][i][0] >= W || CELLS[s][i][1] >= H) fits = 0;
    int top = fits ? rest / SIZE[s] : 0;
    for (int a = 0; a <= top; a++) {
        vec[s] = a;
        vectors_from(s + 1, rest - a * SIZE[s], pieces + a);
    }
    vec[s] = 0;
}

int main(int argc, char **argv) {
    int max_area = 36;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--levels")) print_levels = 1;
        else max_area = atoi(argv[i]);
    }
    if (max_area < 4 || max_area > 64) {
        fprintf(stderr, "triplex_dfs: MAX_AREA must be 4..64, not %s\n", argv[1]);
        return 2;
    }
    double total = 0;
    for (int area = 4; area <= max_area; area++)
        for (int h = area / 2; h >= 2; h--) {
            if (area % h || area / h < h) continue;
            W = area / h;
            H = h;
            N = area;
            FULL = N == 64 ? ~0ULL : (1ULL << N) - 1;
            double t = cpu_now();
            build_placements();
            build_perms();
            vectors = levels = rotatables = 0;
            vectors_from(0, N, 0);
            t = cpu_now() - t;
            total += t;
            printf("size %d %d vectors %ld levels %ld rotatable %ld cpu %.6f\n", W, H, vectors,
                   levels, rotatables, t);
            fflush(stdout);
        }
    printf("total cpu %.6f\n", total);
    return 0;
}
