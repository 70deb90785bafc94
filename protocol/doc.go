// Package protocol is specdev's shared vocabulary: the review request,
// progress, finding, verdict, history-event and config types, the status
// state machine, and the one decoder of every file specdev reads.
//
// Invariants:
//   - No file I/O: callers hand in bytes and a file name for messages.
//   - Every file is read one way: Decode* run the strict decoder (exact
//     keys, no key twice, bounded size and depth, UTF-8, each value of its
//     field's kind, required keys) and then the type's Validate, whose
//     rules are the schemas' (held to them by tests) plus what no schema
//     can say (safe paths, consistent counts). Anything else is an
//     *InvalidError naming the file, the field and the fix. At run time
//     no schema is compiled: schemas/ is the published contract.
//   - A value is validated before it is written by the rules it is read by.
//   - State files (request, progress) keep unknown top-level fields across
//     a decode/encode round trip; agent inputs (verdict, findings) and the
//     config refuse them, listing the valid ones.
//   - A status change is legal only if Transition allows it.
package protocol
