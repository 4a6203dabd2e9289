// Package adviceview renders the knowledge-base answers: the advice to a
// pasted error or a troubleshooting or card-choice question (Advice: the
// topic as a diagnosis or as advice, its causes and numbered steps, what
// the lab's data adds — an estimate, disk and billing rules, stock, the
// cards that fit — and its sources), and a fact check (Check: the
// verdict first, the sourced value, its date and source).
package adviceview
