package io.ricochet.noise;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * A server's static X25519 key pair, which its clients pin by the public half. On disk it is the base64 of the
 * 32-byte private key on one line, readable by its owner only.
 */
public final class NoiseKeyPair {
    public static final int KEY_BYTES = 32;

    private final byte[] privateKey;
    private final byte[] publicKey;
    /** The private half as the JDK holds it, immutable: every handshake thread reads it, none derives it again. */
    private final PrivateKey staticKey;

    private NoiseKeyPair(byte[] privateKey) {
        this.privateKey = privateKey.clone();
        try {
            this.staticKey = X25519.privateKey(privateKey);
            this.publicKey = X25519.publicKey(staticKey);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no X25519 (expected: Java 11 or later)", e);
        }
    }

    /** A fresh pair from the system's secure random source. */
    public static NoiseKeyPair generate() {
        byte[] secret = new byte[KEY_BYTES];
        new SecureRandom().nextBytes(secret);
        // Clamped as RFC 7748 clamps, so the file holds the scalar that is used (as noise-java's files did).
        secret[0] &= (byte) 248;
        secret[31] &= 127;
        secret[31] |= 64;
        NoiseKeyPair pair = new NoiseKeyPair(secret);
        Arrays.fill(secret, (byte) 0);
        return pair;
    }

    /** The pair of a 32-byte X25519 private key. */
    public static NoiseKeyPair fromPrivateKey(byte[] privateKey) {
        if (privateKey == null || privateKey.length != KEY_BYTES) {
            throw new IllegalArgumentException("noise privateKey: " + (privateKey == null ? "null" : privateKey.length
                    + " bytes") + " (expected: " + KEY_BYTES + " bytes)");
        }
        return new NoiseKeyPair(privateKey);
    }

    /** Reads a key file as {@link #write} leaves it; fails with {@link IllegalArgumentException} naming the file. */
    public static NoiseKeyPair read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            String why = e instanceof NoSuchFileException ? "no such file" : String.valueOf(e.getMessage());
            throw new IllegalArgumentException("noise key " + file + ": cannot read it (" + why + ")", e);
        }
        String line = lines.isEmpty() ? "" : lines.get(0).strip();
        try {
            return fromPrivateKey(Base64.getDecoder().decode(line));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("noise key " + file + ": its first line is not a base64 "
                    + KEY_BYTES + "-byte private key", e);
        }
    }

    /** Writes the private key to a new file readable by its owner only; refuses to overwrite one. */
    public void write(Path file) throws IOException {
        if (Files.exists(file)) {
            throw new FileAlreadyExistsException(file.toString());
        }
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, Base64.getEncoder().encodeToString(privateKey) + "\n", StandardCharsets.US_ASCII,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** Decodes a pinned public key given in base64; fails naming what is wrong with it. */
    public static byte[] parsePublicKey(String base64) {
        byte[] key;
        try {
            key = Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("noise public key: " + base64 + " (expected: base64 of "
                    + KEY_BYTES + " bytes)");
        }
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException("noise public key: " + key.length + " bytes (expected: " + KEY_BYTES + ")");
        }
        return key;
    }

    public byte[] publicKey() {
        return publicKey.clone();
    }

    public String publicKeyBase64() {
        return Base64.getEncoder().encodeToString(publicKey);
    }

    byte[] privateKey() {
        return privateKey;
    }

    /** The static key as the responder uses it. */
    PrivateKey staticKey() {
        return staticKey;
    }

    @Override
    public String toString() {
        // Never the private half.
        return "NoiseKeyPair[public=" + publicKeyBase64() + "]";
    }
}
