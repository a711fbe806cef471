//! The glossary's entries: each term, the forms a text may use (plurals, the long name), and
//! its definition in our own words, agreeing with the sources the app cites (Kleppmann 2016,
//! DDIA, antirez 2016, Chubby 2006, Redis's "Distributed locks with Redis", the article Lockstep
//! was built from), each definition naming the one it rests on.

/// A term the glossary defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Term {
    Lease,
    Ttl,
    FencingToken,
    Invariant,
    GcPause,
    Zombie,
    HeldSafely,
    Redlock,
    CheckAndSet,
    Sequencer,
    Zxid,
    Epoch,
    Ddia,
    Antirez,
    Chubby,
    Seed,
    VirtualMs,
}

/// One term: its name as a heading, the forms a text may use, and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub term: Term,
    pub name: &'static str,
    /// Lower-case forms found in a text, whole words only (the name's own form among them).
    pub forms: &'static [&'static str],
    pub definition: &'static str,
}

/// Every entry, in the order a learner meets them.
pub const ENTRIES: &[Entry] = &[
    Entry {
        term: Term::Lease,
        name: "lease",
        forms: &["lease", "leases"],
        definition: "A lock that runs out by itself. The lock service grants it for a fixed \
                     time and frees it when that time is up, even if the holder is still \
                     working: a holder that stops for too long loses the lock without knowing.",
    },
    Entry {
        term: Term::Ttl,
        name: "TTL",
        forms: &["ttl", "ttls"],
        definition: "Time to live: how long a lease lasts from when it is granted, unless it \
                     is renewed.",
    },
    Entry {
        term: Term::FencingToken,
        name: "fencing token",
        forms: &["fencing token", "fencing tokens", "token", "tokens"],
        definition: "A number the lock service hands out with each lease, higher every time. \
                     The resource remembers the highest token it has seen and refuses a write \
                     that carries a lower one, so a holder that lost its lease cannot write.",
    },
    Entry {
        term: Term::Invariant,
        name: "invariant",
        forms: &["invariant", "invariants"],
        definition: "A rule that must always hold, such as \"at most one client believes it \
                     holds the lock\". Lockstep checks every one after each event and marks \
                     the event that breaks it.",
    },
    Entry {
        term: Term::GcPause,
        name: "GC pause",
        forms: &[
            "gc pause",
            "gc pauses",
            "garbage-collection pause",
            "garbage-collection pauses",
        ],
        definition: "A garbage-collection pause: the language runtime stops the whole program \
                     to free memory. Such stop-the-world pauses have been known to last \
                     minutes, long enough for a lease to run out.",
    },
    Entry {
        term: Term::Zombie,
        name: "zombie",
        forms: &["zombie", "zombies"],
        definition: "A client whose lease ran out without it noticing (it was paused, say) and \
                     that still acts as if it held the lock.",
    },
    Entry {
        term: Term::HeldSafely,
        name: "heldSafely()",
        forms: &["heldsafely()", "heldsafely"],
        definition: "The lease check of the article Lockstep was built from (§ Lock Duration \
                     and Renewal): true while the lock is held and less than the TTL minus a \
                     margin has passed since the acquisition, by the client's own clock. It \
                     ignores renewals.",
    },
    Entry {
        term: Term::Redlock,
        name: "Redlock",
        forms: &["redlock"],
        definition: "Redis's lock over several independent Redis nodes, five in its examples: \
                     a client holds it once a majority granted it within the lock's validity \
                     time (\"Distributed locks with Redis\"). Martin Kleppmann (2016) disputed \
                     its safety; antirez (2016) defended it.",
    },
    Entry {
        term: Term::CheckAndSet,
        name: "check-and-set",
        forms: &["check-and-set", "check and set"],
        definition: "A write the resource makes only while what it holds is still what the \
                     writer expects, checked and written in one step. antirez (\"Is Redlock \
                     safe?\", 2016) proposed it with Redlock's random value; Kleppmann (2016) \
                     notes a random value cannot order holders.",
    },
    Entry {
        term: Term::Sequencer,
        name: "sequencer",
        forms: &["sequencer", "sequencers"],
        definition: "Chubby's fencing token: a string naming the lock, its mode and its \
                     generation number, which the holder passes to the servers it calls; a \
                     server refuses a request whose sequencer is no longer valid (Mike \
                     Burrows, OSDI 2006, §2.4).",
    },
    Entry {
        term: Term::Zxid,
        name: "zxid",
        forms: &["zxid", "zxids"],
        definition: "ZooKeeper's transaction id, stamped on each change to its data (a node's \
                     czxid is that of the change that created it). Martin Kleppmann (\"How to \
                     do distributed locking\", 2016) suggests the zxid or the znode version as \
                     ZooKeeper's fencing token.",
    },
    Entry {
        term: Term::Epoch,
        name: "epoch",
        forms: &["epoch", "epochs", "epoch number", "epoch numbers"],
        definition: "A number raised each time a new owner takes over, carried by the owner's \
                     requests and checked by their recipient, as a fencing token is. DDIA's \
                     second edition (ch. 9) notes that Kafka calls these epoch numbers, Raft \
                     terms and Paxos ballot numbers.",
    },
    Entry {
        term: Term::Ddia,
        name: "DDIA",
        forms: &["ddia", "designing data-intensive applications"],
        definition: "Designing Data-Intensive Applications, Martin Kleppmann's book (first \
                     edition 2017). Its second edition, with Chris Riccomini, explains leases \
                     and fencing tokens in chapter 9.",
    },
    Entry {
        term: Term::Antirez,
        name: "antirez",
        forms: &["antirez"],
        definition: "Salvatore Sanfilippo, who wrote Redis and its Redlock algorithm. His post \
                     \"Is Redlock safe?\" (2016) answered Martin Kleppmann's \"How to do \
                     distributed locking\" (2016).",
    },
    Entry {
        term: Term::Chubby,
        name: "Chubby",
        forms: &["chubby"],
        definition: "Google's lock service, described by Mike Burrows in \"The Chubby lock \
                     service for loosely-coupled distributed systems\" (OSDI 2006). Its \
                     sequencers play the part of fencing tokens.",
    },
    Entry {
        term: Term::Seed,
        name: "seed",
        forms: &["seed", "seeds"],
        definition: "The number every random choice of a run comes from, such as how long \
                     each message takes. The same scenario with the same seed runs the same \
                     way every time.",
    },
    Entry {
        term: Term::VirtualMs,
        name: "virtual ms",
        forms: &["virtual ms", "virtual time"],
        definition: "Milliseconds on the simulation's own clock, not yours: a run's seconds \
                     pass only as fast as you step or play them.",
    },
];

impl Term {
    /// This term's entry.
    pub fn entry(self) -> &'static Entry {
        ENTRIES
            .iter()
            .find(|e| e.term == self)
            .unwrap_or(&ENTRIES[0])
    }
}
