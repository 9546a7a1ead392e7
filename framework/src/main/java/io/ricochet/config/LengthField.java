package io.ricochet.config;

/** Width of the big-endian unsigned length field that prefixes every frame. */
public enum LengthField {
    TWO(2, 4094, 0xFFFF),
    FOUR(4, 16 * 1024 * 1024, 1 << 30);

    private final int width;
    private final int defaultMaxFrame;
    private final int largestMaxFrame;

    LengthField(int width, int defaultMaxFrame, int largestMaxFrame) {
        this.width = width;
        this.defaultMaxFrame = defaultMaxFrame;
        this.largestMaxFrame = largestMaxFrame;
    }

    /** Bytes on the wire. */
    public int width() {
        return width;
    }

    /** 4094 for the 2-byte field (the CFW echo test), 16 MiB for the 4-byte field. */
    public int defaultMaxFrame() {
        return defaultMaxFrame;
    }

    /** The largest body the field can describe; 1 GiB for the 4-byte field keeps one frame inside one ByteBuf. */
    public int largestMaxFrame() {
        return largestMaxFrame;
    }

    /** Largest UDP body: an IPv4 datagram carries at most 65,507 payload bytes, less the length field. */
    public int largestUdpBody() {
        return 65_507 - width;
    }

    public static LengthField ofWidth(int width) {
        return switch (width) {
            case 2 -> TWO;
            case 4 -> FOUR;
            default -> throw new InvalidValueException("lengthField", Integer.toString(width), "2 or 4");
        };
    }
}
