//! The one seedable PRNG every random choice of a game flows from.
//!
//! It is MT19937 seeded and drawn exactly as CPython's `random.Random(int)` does (`init_by_array`
//! over the seed's 32-bit words, `_randbelow` by rejection on `getrandbits`, Fisher–Yates
//! `shuffle`), so a seed deals the same game in the core as in the reference Python engine: the
//! differential test replays recorded games decision by decision.
//!
//! The generator is written here rather than taken from a crate: a game seeds two of them, and
//! CPython's array seeding with plain wrapping arithmetic is a third of the cost of the general
//! one (seeding was a tenth of a random game).

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER: u32 = 0x8000_0000;
const LOWER: u32 = 0x7fff_ffff;

/// `init_genrand(19650218)`, where every `init_by_array` starts: worked out once, at compile time
/// (the look-ahead seeds three generators per playout).
const INIT_GENRAND: [u32; N] = {
    let mut mt = [0u32; N];
    mt[0] = 19_650_218;
    let mut i = 1;
    while i < N {
        mt[i] = 1_812_433_253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        i += 1;
    }
    mt
};

/// CPython's `random.Random`. A generator seeded with an integer is seeded lazily, at its first
/// draw: seeding costs about as much as a hundred draws, and the look-ahead makes generators
/// (a determinised game's own, for one) that are seldom drawn from.
#[derive(Debug)]
pub struct PyRandom {
    /// None until the first draw of an integer-seeded generator
    state: Option<Box<[u32; N]>>,
    idx: usize,
    /// the words before this place are twisted for the draws at `idx`, those from it are still
    /// the last twist's: a word is twisted when a draw first reaches it (a game seldom draws
    /// every word of a twist, and a generator is seeded and twisted twice a random game)
    ready: usize,
    /// the integer seed's 32-bit words (least significant first) while `state` is None
    key: [u32; 4],
    key_len: usize,
}

impl Clone for PyRandom {
    fn clone(&self) -> PyRandom {
        PyRandom { state: self.state.clone(), idx: self.idx, ready: self.ready, key: self.key, key_len: self.key_len }
    }
    /// Into the target's own state when it has one (no allocation).
    fn clone_from(&mut self, o: &PyRandom) {
        match (&mut self.state, &o.state) {
            (Some(mine), Some(theirs)) => **mine = **theirs,
            _ => self.state.clone_from(&o.state),
        }
        self.idx = o.idx;
        self.ready = o.ready;
        self.key = o.key;
        self.key_len = o.key_len;
    }
}

impl PartialEq for PyRandom {
    fn eq(&self, other: &PyRandom) -> bool {
        self.idx == other.idx && self.words() == other.words()
    }
}

impl Eq for PyRandom {}

impl PyRandom {
    /// `random.Random(seed)` for an integer seed (its absolute value, as CPython does).
    pub fn new(seed: i128) -> PyRandom {
        let mut n = seed.unsigned_abs();
        let mut key = [0u32; 4];
        let mut len = 0;
        while n > 0 {
            key[len] = (n & 0xffff_ffff) as u32;
            n >>= 32;
            len += 1;
        }
        PyRandom { state: None, idx: N, ready: N, key, key_len: len.max(1) }
    }

    /// `random.Random(s)` for a string seed. CPython (seeding version 2) seeds with the integer
    /// `int.from_bytes(s.encode() + sha512(s.encode()).digest(), "big")`: the players seed their
    /// generators with strings such as `"greedy:7"`, and must draw what the Python players drew.
    pub fn from_str_seed(s: &str) -> PyRandom {
        use sha2::{Digest, Sha512};
        let mut bytes = s.as_bytes().to_vec();
        bytes.extend_from_slice(&Sha512::digest(s.as_bytes()));
        // the big-endian integer as 32-bit words, least significant first (init_by_array's key)
        let mut key: Vec<u32> =
            bytes.rchunks(4).map(|c| c.iter().fold(0u32, |acc, &b| (acc << 8) | b as u32)).collect();
        while key.len() > 1 && key.last() == Some(&0) {
            key.pop(); // CPython sizes the key by the integer's bit length
        }
        PyRandom { state: Some(init_by_array(&key)), idx: N, ready: N, key: [0; 4], key_len: 0 }
    }

    /// `PyRandom::new(seed)` for each seed, seeded at once. Seeding one generator is a chain of
    /// 1,247 dependent multiplications; `LANES` chains side by side take about the time of one
    /// (the look-ahead seeds two generators per playout, most of a playout's cost otherwise).
    pub fn new_many(seeds: &[i128]) -> Vec<PyRandom> {
        let mut out: Vec<PyRandom> = seeds.iter().map(|&s| PyRandom::new(s)).collect();
        for chunk in out.chunks_mut(LANES) {
            if chunk.len() < 3 {
                continue; // (a lane costs a little more than a generator alone: these seed lazily)
            }
            let mut keys = [[0u32; 4]; LANES];
            let mut lens = [1usize; LANES];
            for (l, r) in chunk.iter().enumerate() {
                keys[l] = r.key;
                lens[l] = r.key_len;
            }
            let states = init_by_array_lanes(&keys, &lens);
            for (r, st) in chunk.iter_mut().zip(states) {
                r.state = Some(st);
            }
        }
        out
    }

    /// The generator's words (seeding it if it is not yet), every word of the current twist
    /// twisted: generators in the same state have the same words, however far each has twisted.
    fn words(&self) -> std::borrow::Cow<'_, [u32; N]> {
        match &self.state {
            Some(s) if self.ready == N => std::borrow::Cow::Borrowed(s),
            Some(s) => {
                let mut mt = s.clone();
                twist_words(&mut mt, self.ready, N);
                std::borrow::Cow::Owned(*mt)
            }
            None => std::borrow::Cow::Owned(*init_by_array(&self.key[..self.key_len])),
        }
    }

    /// The words the next draws need: at the end of the words, the next twist starts (seeding
    /// first if that has not been done yet); the words are twisted `TWIST_AHEAD` at a time.
    fn twist(&mut self) {
        if self.idx >= N {
            if self.state.is_none() {
                self.state = Some(seeded_words(&self.key[..self.key_len]));
            }
            (self.idx, self.ready) = (0, 0);
        }
        let end = (self.ready + TWIST_AHEAD).min(N);
        twist_words(self.state.as_mut().expect("seeded above"), self.ready, end);
        self.ready = end;
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.idx >= self.ready {
            self.twist();
        }
        let mut y = self.state.as_ref().expect("seeded by the twist")[self.idx];
        self.idx += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for 0 < k <= 64.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        if k <= 32 {
            (self.next_u32() >> (32 - k)) as u64
        } else {
            let lo = self.next_u32() as u64;
            let hi = (self.next_u32() >> (64 - k)) as u64;
            lo | (hi << 32)
        }
    }

    /// `randrange(n)`: uniform in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        let k = usize::BITS - n.leading_zeros();
        loop {
            let r = self.getrandbits(k) as usize;
            if r < n {
                return r;
            }
        }
    }

    /// `shuffle(list)`.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }

    /// `random()`: a float in [0, 1).
    pub fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)
    }
}

/// How many words a draw that finds none ready twists.
const TWIST_AHEAD: usize = 32;

/// Words `from..to` of the twist, the words before `from` twisted already. Word k reads words
/// k + 1 and k + M as they were before the twist (not reached yet) below N - M, and the twisted
/// word k + M - N from there on (reached already): twisted in order, a few at a time, the words
/// are those of the whole twist at once.
fn twist_words(mt: &mut [u32; N], from: usize, to: usize) {
    let mix = |a: u32, b: u32, c: u32| {
        let y = (a & UPPER) | (b & LOWER);
        c ^ (y >> 1) ^ if y & 1 != 0 { MATRIX_A } else { 0 }
    };
    for k in from..to.min(N - M) {
        mt[k] = mix(mt[k], mt[k + 1], mt[k + M]);
    }
    for k in from.max(N - M)..to.min(N - 1) {
        mt[k] = mix(mt[k], mt[k + 1], mt[k + M - N]);
    }
    if to == N {
        mt[N - 1] = mix(mt[N - 1], mt[0], mt[M - 1]);
    }
}

/// How many seeds a thread remembers.
const SEEDED_SLOTS: usize = 16;

/// A seed drawn from (its key words and their count), and its seeded words once it was drawn
/// from a second time.
type Seeded = (([u32; 4], usize), Option<Box<[u32; N]>>);

thread_local! {
    /// The latest integer seeds drawn from, with their seeded words (before the first twist) once
    /// they came again: a search plays many playouts from one determinised game, and each one
    /// that draws from the game's generator (a deck shuffled by an effect) seeds the same seed
    /// again; a seed met once (a new game's) keeps no copy. (On the heap: a module loaded into
    /// Python has little room for thread-local data of its own.)
    static SEEDED: std::cell::RefCell<(Vec<Seeded>, usize)> = const { std::cell::RefCell::new((Vec::new(), 0)) };
}

/// The words of a generator seeded with `key`: `init_by_array(key)` (the same words, remembered
/// for a seed met again; the first draw twists them).
#[inline(never)]
fn seeded_words(key: &[u32]) -> Box<[u32; N]> {
    let mut k = [0u32; 4];
    k[..key.len()].copy_from_slice(key);
    let id = (k, key.len());
    SEEDED.with(|cell| {
        let mut memo = cell.borrow_mut();
        let (slots, next) = &mut *memo;
        let at = slots.iter().position(|(x, _)| *x == id);
        if let Some(i) = at
            && let Some(words) = &slots[i].1
        {
            return words.clone();
        }
        let mt = init_by_array(key);
        match at {
            Some(i) => slots[i].1 = Some(mt.clone()),
            None if slots.len() < SEEDED_SLOTS => slots.push((id, None)),
            None => {
                slots[*next] = (id, None);
                *next = (*next + 1) % SEEDED_SLOTS;
            }
        }
        mt
    })
}

/// `init_by_array(key)`: CPython's seeding of the Mersenne Twister. Its two passes walk the
/// words from 1 to N - 1 and wrap to 1 (word 0 takes the last one written); written as runs of
/// words between the wraps, each word is a step with no index to check.
fn init_by_array(key: &[u32]) -> Box<[u32; N]> {
    let mut mt = Box::new(INIT_GENRAND);
    // what the first pass adds at key place j: key[j] + j
    let add: Vec<u32> = key.iter().enumerate().map(|(j, &k)| k.wrapping_add(j as u32)).collect();
    // `prev` is mt[i - 1], kept in a register: each word depends on the one before
    let mut prev = mt[0];
    let (mut i, mut j) = (1usize, 0usize);
    let mut left = N.max(key.len());
    while left > 0 {
        let run = (N - i).min(left);
        if let [a] = add[..] {
            // (a seed below 2^32, as most are: the same word added at every step)
            let step = |prev: u32, word: u32| (word ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525)).wrapping_add(a);
            prev = steps_by_eight(&mut mt[i..i + run], prev, step);
        } else {
            for word in &mut mt[i..i + run] {
                prev = (*word ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525)).wrapping_add(add[j]);
                *word = prev;
                j += 1;
                if j == add.len() {
                    j = 0;
                }
            }
        }
        (i, left) = (i + run, left - run);
        if i == N {
            mt[0] = prev;
            i = 1;
        }
    }
    let mut left = N - 1;
    while left > 0 {
        let run = (N - i).min(left);
        // (word i takes i away: read off a table, an instruction less a step than counting)
        let mut words = mt[i..i + run].chunks_exact_mut(8);
        let mut minus = MINUS_PLACE[i..i + run].chunks_exact(8);
        for (eight, minus) in (&mut words).zip(&mut minus) {
            for (word, &m) in eight.iter_mut().zip(minus) {
                prev = (*word ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_add(m);
                *word = prev;
            }
        }
        for (word, &m) in words.into_remainder().iter_mut().zip(minus.remainder()) {
            prev = (*word ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_add(m);
            *word = prev;
        }
        (i, left) = (i + run, left - run);
        if i == N {
            mt[0] = prev;
            i = 1;
        }
    }
    mt[0] = UPPER;
    mt
}

/// `-i` for each place i of the words: what the second pass of `init_by_array` adds at place i.
const MINUS_PLACE: [u32; N] = {
    let mut t = [0u32; N];
    let mut i = 0;
    while i < N {
        t[i] = (i as u32).wrapping_neg();
        i += 1;
    }
    t
};

/// `words[k] = step(words[k - 1], words[k])` along `words` from `prev` (the word before them),
/// eight steps to a turn of the loop: a step is a handful of instructions, and the loop's own
/// count and test were about a quarter of them. Returns the last word written.
#[inline(always)]
fn steps_by_eight(words: &mut [u32], mut prev: u32, mut step: impl FnMut(u32, u32) -> u32) -> u32 {
    let mut eights = words.chunks_exact_mut(8);
    for eight in &mut eights {
        for word in eight {
            prev = step(prev, *word);
            *word = prev;
        }
    }
    for word in eights.into_remainder() {
        prev = step(prev, *word);
        *word = prev;
    }
    prev
}

/// How many generators `new_many` seeds side by side (the compiler makes SIMD of the lanes).
const LANES: usize = 8;

/// `init_by_array` of `LANES` keys of at most 4 words at once, the lanes interleaved.
fn init_by_array_lanes(keys: &[[u32; 4]; LANES], lens: &[usize; LANES]) -> [Box<[u32; N]>; LANES] {
    // what the first pass adds at step t: key[j] + j with j = t % len; the same every 12 steps
    // (12 is a multiple of every key length 1..=4)
    let mut add = [[0u32; LANES]; 12];
    for (t, row) in add.iter_mut().enumerate() {
        for l in 0..LANES {
            let j = t % lens[l];
            row[l] = keys[l][j].wrapping_add(j as u32);
        }
    }
    let mut mt: Vec<[u32; LANES]> = INIT_GENRAND.iter().map(|&x| [x; LANES]).collect();
    let mut prev = mt[0];
    let mut i = 1usize;
    // (keys of at most 4 words: N steps for every lane, as `N.max(key.len())`)
    for t in 0..N {
        let (row, a) = (&mut mt[i], &add[t % 12]);
        for l in 0..LANES {
            prev[l] = (row[l] ^ (prev[l] ^ (prev[l] >> 30)).wrapping_mul(1_664_525)).wrapping_add(a[l]);
            row[l] = prev[l];
        }
        i += 1;
        if i >= N {
            mt[0] = prev;
            i = 1;
        }
    }
    for _ in 0..N - 1 {
        let row = &mut mt[i];
        for l in 0..LANES {
            prev[l] = (row[l] ^ (prev[l] ^ (prev[l] >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            row[l] = prev[l];
        }
        i += 1;
        if i >= N {
            mt[0] = prev;
            i = 1;
        }
    }
    mt[0] = [UPPER; LANES];
    std::array::from_fn(|l| {
        let words: Vec<u32> = mt.iter().map(|row| row[l]).collect();
        words.into_boxed_slice().try_into().expect("N words")
    })
}

#[cfg(test)]
mod tests {
    /// CPython's `init_by_array` step by step, as its C source writes it.
    fn init_by_array_as_written(key: &[u32]) -> [u32; N] {
        let mut mt = INIT_GENRAND;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = UPPER;
        mt
    }

    #[test]
    fn seeding_by_runs_is_seeding_as_written() {
        let mut words = PyRandom::new(11);
        for len in [1usize, 1, 2, 3, 4, 5, 17, 623, 624, 625, 700, 1300] {
            let key: Vec<u32> = (0..len).map(|_| words.getrandbits(32) as u32).collect();
            assert_eq!(*super::init_by_array(&key), init_by_array_as_written(&key), "a key of {len} words");
        }
    }

    use super::*;

    #[test]
    fn matches_cpython() {
        // random.Random(7): [r.randrange(1000) for _ in range(5)]
        let mut r = PyRandom::new(7);
        let got: Vec<usize> = (0..5).map(|_| r.below(1000)).collect();
        assert_eq!(got, vec![331, 970, 154, 404, 666]);
        // random.Random(12345); l = list(range(10)); r.shuffle(l)
        let mut r = PyRandom::new(12345);
        let mut l: Vec<u32> = (0..10).collect();
        r.shuffle(&mut l);
        assert_eq!(l, vec![8, 7, 3, 5, 1, 2, 9, 4, 0, 6]);
        // a seed wider than 32 bits: random.Random(2**40 + 5).getrandbits(32)
        let mut r = PyRandom::new((1i128 << 40) + 5);
        assert_eq!(r.getrandbits(32), 2166296868);
        assert_eq!(PyRandom::new(-3).below(100), 30);
        assert_eq!(PyRandom::new(0).below(100), 49);
    }

    #[test]
    fn many_draws_match_cpython() {
        // random.Random(2**64 - 1): sum(r.getrandbits(32) for _ in range(2000)) % 2**32,
        // then r.random()
        let mut r = PyRandom::new((1i128 << 64) - 1);
        let s: u64 = (0..2000).map(|_| r.getrandbits(32)).sum();
        assert_eq!(s % (1 << 32), EXPECTED_SUM);
        assert!((r.random() - EXPECTED_RANDOM).abs() < 1e-15);
    }

    #[test]
    fn string_seeds_match_cpython() {
        // random.Random("greedy:7"): [r.getrandbits(32) for _ in range(3)], r.random()
        let mut r = PyRandom::from_str_seed("greedy:7");
        let got: Vec<u64> = (0..3).map(|_| r.getrandbits(32)).collect();
        assert_eq!(got, vec![3891455228, 3245487555, 3826895053]);
        assert_eq!(r.random(), 0.2609825428780631);
        // random.Random("lookahead:123456789012"): r.randrange(1000), r.getrandbits(64)
        let mut r = PyRandom::from_str_seed("lookahead:123456789012");
        assert_eq!(r.below(1000), 113);
        assert_eq!(r.getrandbits(64), 14401341886580874996);
        assert_eq!(PyRandom::from_str_seed("").getrandbits(32), 4124137760);
    }

    #[test]
    fn a_lazy_generator_equals_a_seeded_one() {
        let lazy = PyRandom::new(42);
        let mut drawn = PyRandom::new(42);
        assert_eq!(lazy, drawn);
        drawn.next_u32();
        assert_ne!(lazy, drawn);
        let mut copy = lazy.clone();
        copy.next_u32();
        assert_eq!(copy, drawn);
        assert_ne!(PyRandom::new(42), PyRandom::new(43));
    }

    #[test]
    fn generators_seeded_together_are_those_seeded_alone() {
        let seeds: Vec<i128> = vec![0, 1, 7, -3, 1 << 40, (1 << 64) - 1, 123_456_789_012, 5, 99];
        let many = PyRandom::new_many(&seeds);
        for (mut a, &s) in many.into_iter().zip(&seeds) {
            let mut b = PyRandom::new(s);
            assert_eq!(a, b);
            assert_eq!(
                (0..700).map(|_| a.next_u32()).collect::<Vec<_>>(),
                (0..700).map(|_| b.next_u32()).collect::<Vec<_>>()
            );
        }
    }

    const EXPECTED_SUM: u64 = 2182720355;
    const EXPECTED_RANDOM: f64 = 0.3820204326237707;
}

#[cfg(test)]
mod timing {
    #[test]
    #[ignore]
    fn seeding_speed() {
        let seeds: Vec<i128> = (0..40_000).map(|i| (i as i128) * 0x9E37_79B9_7F4A_7C15).collect();
        let t = std::time::Instant::now();
        let mut x = 0u32;
        for s in &seeds {
            x ^= super::PyRandom::new(*s).next_u32();
        }
        let one = t.elapsed();
        let t = std::time::Instant::now();
        for chunk in seeds.chunks(4) {
            for mut r in super::PyRandom::new_many(chunk) {
                x ^= r.next_u32();
            }
        }
        let four = t.elapsed();
        let t = std::time::Instant::now();
        for s in &seeds {
            x ^= super::init_by_array(&[*s as u32, (*s >> 32) as u32])[5];
        }
        let seed_only = t.elapsed();
        let t = std::time::Instant::now();
        let (keys, lens) = ([[1u32, 2, 0, 0]; super::LANES], [2usize; super::LANES]);
        for _ in 0..40_000 / super::LANES {
            x ^= super::init_by_array_lanes(&keys, &lens)[0][5];
        }
        eprintln!(
            "one by one {:?}, four at once {:?}; seeding alone {:?}, in lanes {:?} ({x})",
            one / 40_000,
            four / 40_000,
            seed_only / 40_000,
            t.elapsed() / 40_000
        );
    }
}
