// Package checkpoint is the assignment store on disk: locating .specdev/,
// locking, atomic writes, leases and staleness, the review transactions
// (request, claim, record, verdict, takeover, release…) and the history log;
// also this machine's consent to run a project's gate and the record of a
// gate running (consent.go).
//
// Invariants:
//   - Every read-modify-write of an assignment runs under an exclusive flock
//     on <assignment>/.specdev.lock, taken with a bounded wait; the lock file
//     is never deleted.
//   - Every file write is atomic and durable: temp file in the same folder,
//     write, fsync, close, rename, fsync the folder. Temp files left by a
//     killed writer are removed by the next transaction. (The poll cache,
//     machine-local and believed whole or not at all, is written in
//     place: pollcache.go says why.)
//   - A transaction that fails changes nothing: files are written only after
//     the transaction's function succeeds, and a malformed state file is
//     reported (protocol.InvalidError), never overwritten.
//   - History events are appended under the lock and fsynced; a torn last
//     line is tolerated on read and repaired on the next append.
//   - Leases, not PIDs: a review belongs to the session in its progress file
//     and is alive while last_activity is younger than stale_after; every
//     reviewer transaction checks the caller still holds it.
//   - Time comes from Store.Now, never from the clock directly.
package checkpoint
