// Package protocol is specdev's shared vocabulary: the review request,
// progress, finding, verdict, history-event and config types, the status
// state machine, and the decoders that validate every file against its
// embedded JSON Schema.
//
// Invariants:
//   - No file I/O: callers hand in bytes and a file name for messages.
//   - A decoded value has passed its schema and the semantic checks the
//     schema cannot express (safe paths, supported version, UTF-8); anything
//     else is an *InvalidError naming the file, the field and the fix.
//   - State files (request, progress) keep unknown fields across a
//     decode/encode round trip; agent inputs (verdict, findings) and the
//     config reject them.
//   - A status change is legal only if Transition allows it.
//   - The fast decoder and encoder of the state files (fastdecode.go,
//     fastencode.go) read and write exactly what encoding/json does, or
//     give up and leave the whole document to it.
package protocol
