package io.dra4j.testkit.controlplane.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The secrets one control plane run needs, made fresh for it: the service account signing key pair (PKCS#8 and
 * X.509 PEM, which kube-apiserver reads) and a bearer token in a token file that makes its holder a member of
 * {@code system:masters}.
 *
 * @param serviceAccountKey       the private key file
 * @param serviceAccountPublicKey the public key file
 * @param tokenFile               kube-apiserver's {@code --token-auth-file}
 * @param token                   the bearer token the file grants
 */
public record Credentials(Path serviceAccountKey, Path serviceAccountPublicKey, Path tokenFile, String token) {
    public static Credentials create(Path directory) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair pair = generator.generateKeyPair();
            Path key = directory.resolve("sa.key");
            Path pub = directory.resolve("sa.pub");
            Files.writeString(key, pem("PRIVATE KEY", pair.getPrivate().getEncoded()), StandardCharsets.US_ASCII);
            Files.writeString(pub, pem("PUBLIC KEY", pair.getPublic().getEncoded()), StandardCharsets.US_ASCII);
            byte[] secret = new byte[24];
            new SecureRandom().nextBytes(secret);
            String token = HexFormat.of().formatHex(secret);
            Path tokens = directory.resolve("tokens.csv");
            Files.writeString(
                    tokens, token + ",dra4j-admin,dra4j-admin-uid,system:masters\n", StandardCharsets.US_ASCII);
            return new Credentials(key, pub, tokens, token);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no RSA key generator", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write credentials under " + directory, e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
