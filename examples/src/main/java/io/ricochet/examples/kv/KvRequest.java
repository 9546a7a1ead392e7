package io.ricochet.examples.kv;

/**
 * One request a workload made, kept for the check of its reply.
 *
 * @param sequence the request's number on its connection
 * @param get      a get; else a put
 * @param key      the key's index in the connection's key space
 * @param value    a put's value; for a get, the value it must read back, or null if it must find the key missing
 */
record KvRequest(long sequence, boolean get, int key, String value) {
}
