package io.ricochet.examples.kv;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.session.FrameSession;
import java.nio.charset.StandardCharsets;

/**
 * The text front end of a {@link KvStore}: each request frame gets one reply frame, in order. Bodies are bytes; the
 * words and separators are ASCII, and {@code SP} is one space.
 *
 * <pre>
 * put SP KEY SP VALUE   →  ok  |  error SP REASON
 * get SP KEY            →  value SP VALUE  |  missing  |  error SP REASON
 * </pre>
 *
 * KEY is {@value KvStore#KEY_RULE}; VALUE is every byte after the space that ends KEY, any bytes, 0..{@value
 * KvStore#MAX_VALUE_BYTES} of them (so {@code put k } puts an empty value). REASON is one of {@code unknown command},
 * {@code bad key}, {@code missing value} ({@code put k}, no space after the key), {@code value too long}, and {@code
 * full} (a new key while the store holds its most keys). A malformed request is answered and the connection stays.
 *
 * <pre>{@code
 * KvStore store = new KvStore();
 * RicochetServer server = RicochetServer.builder()
 *         .config(ServerConfig.builder().host("127.0.0.1").build())
 *         .handler(new KvTextHandler(store))
 *         .listen(Listener.tcp(7200))
 *         .build()
 *         .startAndAwait();
 * }</pre>
 *
 * One instance serves every connection. It answers within {@link #onFrame}, so replies to a read batch go out in one
 * write, and nothing in it blocks.
 */
public final class KvTextHandler implements FrameHandler {
    private static final byte SP = ' ';
    private static final byte[] GET = ascii("get");
    private static final byte[] PUT = ascii("put");
    private static final byte[] OK = ascii("ok");
    private static final byte[] MISSING = ascii("missing");
    private static final byte[] VALUE = ascii("value ");
    private static final byte[] UNKNOWN_COMMAND = ascii("error unknown command");
    private static final byte[] BAD_KEY = ascii("error bad key");
    private static final byte[] MISSING_VALUE = ascii("error missing value");
    private static final byte[] VALUE_TOO_LONG = ascii("error value too long");
    private static final byte[] FULL = ascii("error full");

    private final KvStore store;

    public KvTextHandler(KvStore store) {
        if (store == null) {
            throw new IllegalArgumentException("store: null (expected: a store)");
        }
        this.store = store;
    }

    @Override
    public void onFrame(FrameSession session, ByteBuf body) {
        ByteBuf reply;
        try {
            reply = answer(session, body);
        } finally {
            body.release();
        }
        session.send(reply);
    }

    private ByteBuf answer(FrameSession session, ByteBuf body) {
        int from = body.readerIndex();
        int to = body.writerIndex();
        int space = body.indexOf(from, to, SP);
        int commandEnd = space < 0 ? to : space;
        int keyFrom = space < 0 ? to : space + 1;
        if (equalsAscii(body, from, commandEnd, GET)) {
            return get(session, body, keyFrom, to);
        }
        if (equalsAscii(body, from, commandEnd, PUT)) {
            return put(session, body, keyFrom, to);
        }
        return constant(session, UNKNOWN_COMMAND);
    }

    private ByteBuf get(FrameSession session, ByteBuf body, int keyFrom, int to) {
        if (!isValidKey(body, keyFrom, to)) {
            return constant(session, BAD_KEY);
        }
        ByteString value = store.get(body.toString(keyFrom, to - keyFrom, StandardCharsets.US_ASCII));
        if (value == null) {
            return constant(session, MISSING);
        }
        ByteBuf reply = session.allocateBody(VALUE.length + value.size());
        reply.writeBytes(VALUE);
        reply.writeBytes(value.asReadOnlyByteBuffer());
        return reply;
    }

    private ByteBuf put(FrameSession session, ByteBuf body, int keyFrom, int to) {
        int space = body.indexOf(keyFrom, to, SP);
        int keyTo = space < 0 ? to : space;
        if (!isValidKey(body, keyFrom, keyTo)) {
            return constant(session, BAD_KEY);
        }
        if (space < 0) {
            return constant(session, MISSING_VALUE);
        }
        int valueFrom = space + 1;
        // Checked before anything is copied out of the frame.
        if (to - valueFrom > KvStore.MAX_VALUE_BYTES) {
            return constant(session, VALUE_TOO_LONG);
        }
        String key = body.toString(keyFrom, keyTo - keyFrom, StandardCharsets.US_ASCII);
        ByteString value = ByteString.copyFrom(body.nioBuffer(valueFrom, to - valueFrom));
        return constant(session, store.put(key, value) ? OK : FULL);
    }

    /** The key rule on the frame's bytes, so an invalid key is refused before a string is made of it. */
    private static boolean isValidKey(ByteBuf body, int from, int to) {
        int length = to - from;
        if (length < 1 || length > KvStore.MAX_KEY_BYTES) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (!KvStore.isKeyByte(body.getByte(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean equalsAscii(ByteBuf body, int from, int to, byte[] word) {
        if (to - from != word.length) {
            return false;
        }
        for (int i = 0; i < word.length; i++) {
            if (body.getByte(from + i) != word[i]) {
                return false;
            }
        }
        return true;
    }

    private static ByteBuf constant(FrameSession session, byte[] text) {
        return session.allocateBody(text.length).writeBytes(text);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
