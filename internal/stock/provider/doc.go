// Package provider holds the stock providers that are not one platform's
// HTTP API: the catalog's list prices (NewCatalog: CNY per GPU-hour, stock
// unknown) and recorded answers replayed from a directory (NewReplay,
// which parses each recording with its platform's parser).
//
// The platforms' HTTP providers are its subpackages, each a
// stock.Provider built by New and a Parse for one answer: autodl, vastai,
// gpushare (恒源云), matpool (矩池云), runpod and lambda. What they share
// (requests, timeouts, *httpx.APIError wrapping stock's error kinds, a
// 429's saying how long to wait, loose JSON values) is in httpx; their
// tests share providertest.
package provider
