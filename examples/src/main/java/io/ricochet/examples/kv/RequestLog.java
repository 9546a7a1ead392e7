package io.ricochet.examples.kv;

/**
 * A connection's recent requests by sequence number, so each check finds what its own request expected, whatever
 * was put after it and in whatever order replies come, and finds it again if checked again (a late reply over UDP).
 * A ring of the last {@value #INITIAL} requests at least, that doubles, up to {@value #MAX}, when a request would
 * overwrite one whose reply has not been checked yet: so it also holds every request awaiting a reply. A request
 * older than that is forgotten, and a check of it can only say so. Confined to the connection's event loop.
 */
final class RequestLog {
    /** Requests remembered even once checked, so a late UDP reply to any of the last these many is still recognised. */
    static final int INITIAL = 64;
    /** Awaiting replies on one connection: the RPC client's own limit of calls in flight, 4,096 by default. */
    static final int MAX = 4096;

    private KvRequest[] requests = new KvRequest[INITIAL];
    private boolean[] checked = new boolean[INITIAL];

    void add(KvRequest request) {
        int slot = slot(request.sequence());
        while (requests[slot] != null && !checked[slot] && requests.length < MAX) {
            grow();
            slot = slot(request.sequence());
        }
        requests[slot] = request;
        checked[slot] = false;
    }

    /**
     * The request numbered {@code sequence}, marked checked; null if it was forgotten or never made. Finding it again
     * finds the same request (a late reply over UDP is checked again).
     */
    KvRequest check(long sequence) {
        int slot = slot(sequence);
        KvRequest request = requests[slot];
        if (request == null || request.sequence() != sequence) {
            return null;
        }
        checked[slot] = true;
        return request;
    }

    int capacity() {
        return requests.length;
    }

    private void grow() {
        KvRequest[] oldRequests = requests;
        boolean[] oldChecked = checked;
        requests = new KvRequest[oldRequests.length * 2];
        checked = new boolean[oldRequests.length * 2];
        for (int i = 0; i < oldRequests.length; i++) {
            if (oldRequests[i] != null) {
                int slot = slot(oldRequests[i].sequence());
                requests[slot] = oldRequests[i];
                checked[slot] = oldChecked[i];
            }
        }
    }

    private int slot(long sequence) {
        return (int) (sequence & (requests.length - 1));
    }
}
