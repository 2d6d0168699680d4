/* Tournament played by the foundation-only policy, in plain C99: the yardstick that
 * benchmarks/cli_speed.py sets `simstats run --game tournament --policy foundation-only` against.
 *
 * It plays deals 0..N-1 of seed S exactly as simstats does (the same decks, moves and ends) and
 * prints the deals won and the cards sent home; with -v, one line a deal in the columns of
 * simstats.engine.state.OUTCOME_COLUMNS, the deal in front, for checking it deal by deal.
 *
 *     gcc -O2 -march=native -o fo benchmarks/plain_c/foundation_only.c
 *     ./fo N [S] [-v]            (N may be written 1e6; S defaults to 0)
 *
 * Followed: simstats/engine/deals.py (the deck), engine/moves.py (layout, deal, redeal, refill,
 * status), policies/foundation_only.py and docs/rules.md sections 4, 9 and 11. Cards are
 * suit * 13 + rank (suits C D H S, ranks A..K = 0..12); F0..F3 are built up from the ace, F4..F7
 * down from the king. The 2,000-move guard is left out: this policy makes at most 104 moves home,
 * 2 redeals and 4 deals a pass through the stock, far fewer than 2,000.
 *
 * Checked with -v against simstats.run.compiled_play.run_compiled, every outcome column of every
 * deal equal: deals 0..999,999 of seed 0, 0..1,999 of seed 7, 0..99,999 of seeds 1, 2 and
 * 12345678901; and play() on 3,000 hand-made decks (647 of them won) against
 * simstats.run.move_by_move.play_deck. A change to the rules or the deal stream
 * (RULES_VERSION, DEAL_STREAM_VERSION) needs this program changed and checked again.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAMMA 0x9E3779B97F4A7C15ULL

enum { WON, NO_MOVES, RESIGNED };
static const char *END_NAMES[] = {"won", "no_moves", "resigned"};

/* deals.py: splitmix64, keyed by (seed, deal), Lemire's unbiased bounded integers */
static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t next_u64(uint64_t *stream) {
    *stream += GAMMA;
    return mix64(*stream);
}

static int below(uint64_t *stream, uint64_t bound) {
    uint64_t product = (next_u64(stream) >> 32) * bound;
    if ((product & 0xFFFFFFFFULL) < bound) {
        uint64_t threshold = ((1ULL << 32) - bound) % bound;
        while ((product & 0xFFFFFFFFULL) < threshold)
            product = (next_u64(stream) >> 32) * bound;
    }
    return (int)(product >> 32);
}

static void shuffle(uint64_t *stream, int *deck) {
    for (int i = 103; i > 0; i--) {
        int j = below(stream, (uint64_t)i + 1);
        int t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
}

/* docs/rules.md 4.1: reshuffle (from the same stream) until an ace or a king is in the first 8 */
static int needs_reshuffle(const int *deck) {
    for (int i = 0; i < 8; i++)
        if (deck[i] % 13 == 0 || deck[i] % 13 == 12) return 0;
    return 1;
}

static int shuffled_deck(uint64_t seed, uint64_t deal, int *deck) {
    uint64_t stream = mix64(mix64(mix64(seed + GAMMA) ^ (deal * GAMMA)) ^ 0 /* deck salt */);
    for (int k = 0; k < 104; k++) deck[k] = k % 52;
    shuffle(&stream, deck);
    int reshuffles = 0;
    while (needs_reshuffle(deck)) {
        shuffle(&stream, deck);
        reshuffles++;
    }
    return reshuffles;
}

typedef struct {
    int cell[8];           /* R0..R7: a card, or -1 */
    int col[6][104];       /* T0..T5, bottom first */
    int ncol[6];
    int stock[104];        /* its top is stock[nstock - 1] */
    int nstock;
    int home[8];           /* cards on F0..F7 */
    int moves, deals, redeals;
} Game;

/* moves.py deal_round, pile by pile: up to 4 cards from the stock's top onto each of columns
 * first..first+n-1, the first card taken lying lowest; stops when the stock runs out */
static void deal_onto(Game *g, int first, int n) {
    for (int c = first; c < first + n && g->nstock > 0; c++)
        for (int j = 0; j < 4 && g->nstock > 0; j++)
            g->col[c][g->ncol[c]++] = g->stock[--g->nstock];
}

static void lay_out(Game *g, const int *deck) {
    memset(g, 0, sizeof *g);
    for (int i = 0; i < 8; i++) g->cell[i] = deck[i];
    for (int i = 8; i < 104; i++) g->stock[103 - i] = deck[i];
    g->nstock = 96;
    deal_onto(g, 0, 6);
}

/* docs/rules.md 4.7: the new stock deals T0's cards bottom first, then T1's, ...; deal at once */
static void redeal(Game *g) {
    int total = 0;
    for (int c = 0; c < 6; c++) total += g->ncol[c];
    int k = total;
    for (int c = 0; c < 6; c++) {
        for (int j = 0; j < g->ncol[c]; j++) g->stock[--k] = g->col[c][j];
        g->ncol[c] = 0;
    }
    g->nstock = total;
    deal_onto(g, 0, 6);
}

/* The foundation (0..7) that takes `card`, trying F(s) before F(s+4), or -1 */
static int foundation_for(const Game *g, int card) {
    int suit = card / 13, rank = card % 13;
    if (rank == g->home[suit]) return suit;
    if (rank == 12 - g->home[suit + 4]) return suit + 4;
    return -1;
}

/* docs/rules.md 9: the first card home (R0..R7, then T0..T5), else deal, else redeal, else stop */
static int play(Game *g) {
    int home = 0;
    for (;;) {
        if (home == 104) return WON;
        int f = -1;
        for (int r = 0; r < 8 && f < 0; r++) {
            if (g->cell[r] >= 0 && (f = foundation_for(g, g->cell[r])) >= 0) {
                g->cell[r] = -1;
            }
        }
        for (int c = 0; c < 6 && f < 0; c++) {
            if (g->ncol[c] > 0 && (f = foundation_for(g, g->col[c][g->ncol[c] - 1])) >= 0) {
                if (--g->ncol[c] == 0) deal_onto(g, c, 1); /* 4.5: refill at once */
            }
        }
        int tableau = 0;
        for (int c = 0; c < 6; c++) tableau += g->ncol[c];
        if (f >= 0) {
            g->home[f]++;
            home++;
        } else if (g->nstock > 0) {
            g->deals++;
            deal_onto(g, 0, 6);
        } else if (g->redeals < 2 && tableau > 0) {
            g->redeals++;
            redeal(g);
        } else {
            /* The policy stops: `resigned` if a move it never makes was legal (a foundation
             * transfer, which fits when a suit's two foundations hold 13 cards together, or a
             * column's top card into an empty cell), else `no_moves`. */
            for (int s = 0; s < 4; s++)
                if (g->home[s] + g->home[s + 4] == 13) return RESIGNED;
            for (int r = 0; r < 8; r++)
                if (g->cell[r] < 0 && tableau > 0) return RESIGNED;
            return NO_MOVES;
        }
        g->moves++;
    }
}

int main(int argc, char **argv) {
    int verbose = 0, nargs = 0;
    const char *args[2] = {NULL, "0"};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0) verbose = 1;
        else if (nargs < 2) args[nargs++] = argv[i];
    }
    if (nargs < 1) {
        fprintf(stderr, "usage: %s N [SEED] [-v]\n", argv[0]);
        return 2;
    }
    long long n = (long long)strtod(args[0], NULL);
    uint64_t seed = strtoull(args[1], NULL, 10);
    long long wins = 0, cards_home = 0;
    int deck[104];
    Game g;
    for (long long deal = 0; deal < n; deal++) {
        int reshuffles = shuffled_deck(seed, (uint64_t)deal, deck);
        lay_out(&g, deck);
        int end = play(&g);
        int home = 0;
        for (int f = 0; f < 8; f++) home += g.home[f];
        wins += end == WON;
        cards_home += home;
        if (verbose)
            printf("%lld %d %d %d %d %d %d %s\n", deal, reshuffles, end == WON, home, g.moves,
                   g.deals, g.redeals, END_NAMES[end]);
    }
    printf("deals %lld seed %llu wins %lld cards_home %lld\n", n, (unsigned long long)seed, wins,
           cards_home);
    return 0;
}
