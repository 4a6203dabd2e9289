// Package billing is the parent of the two halves of what a lab pays:
//
//   - internal/billing/estimator: what a job needs and costs before it
//     runs (VRAM, speed, training stacks, the cost per platform with the
//     hidden storage and billing costs);
//   - internal/billing/ledger: what the lab's disks cost as they run (the
//     storage ledger, its CSV, the digest, release rules, budgets).
//
// They share nothing; this package holds no code.
package billing
