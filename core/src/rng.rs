//! The one seedable PRNG every random choice of a game flows from.
//!
//! It is MT19937 seeded and drawn exactly as CPython's `random.Random(int)` does (`init_by_array`
//! over the seed's 32-bit words, `_randbelow` by rejection on `getrandbits`, Fisher–Yates
//! `shuffle`), so a seed deals the same game in the core as in the reference Python engine: the
//! differential test replays recorded games decision by decision.

use rand_mt::Mt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyRandom {
    mt: Box<Mt>,
}

impl PyRandom {
    /// `random.Random(seed)` for an integer seed (its absolute value, as CPython does).
    pub fn new(seed: i128) -> PyRandom {
        let mut n = seed.unsigned_abs();
        let mut key = Vec::new();
        while n > 0 {
            key.push((n & 0xffff_ffff) as u32);
            n >>= 32;
        }
        if key.is_empty() {
            key.push(0);
        }
        // (a slice iterator: the key is cycled over 624 times, and cloning it must not allocate)
        PyRandom { mt: Box::new(Mt::new_with_key(key.iter().copied())) }
    }

    pub fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_cpython() {
        // random.Random(7): [r.randrange(1000) for _ in range(5)], r.random()
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
}
