package io.dra4j.testkit.controlplane.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialsTest {
    @Test
    void theKeyFilesHoldOneMatchingRsaPairAndTheTokenFileGrantsTheToken(@TempDir Path dir) throws Exception {
        Credentials credentials = Credentials.create(dir);

        KeyFactory rsa = KeyFactory.getInstance("RSA");
        RSAPrivateCrtKey key = (RSAPrivateCrtKey)
                rsa.generatePrivate(new PKCS8EncodedKeySpec(der(credentials.serviceAccountKey(), "PRIVATE KEY")));
        RSAPublicKey pub = (RSAPublicKey)
                rsa.generatePublic(new X509EncodedKeySpec(der(credentials.serviceAccountPublicKey(), "PUBLIC KEY")));
        assertThat(pub.getModulus()).isEqualTo(key.getModulus());
        assertThat(pub.getModulus().bitLength()).isEqualTo(2048);

        assertThat(credentials.token()).matches("[0-9a-f]{48}");
        assertThat(Files.readString(credentials.tokenFile()))
                .isEqualTo(credentials.token() + ",dra4j-admin,dra4j-admin-uid,system:masters\n");
        assertThat(Credentials.create(Files.createDirectory(dir.resolve("again")))
                        .token())
                .isNotEqualTo(credentials.token());
    }

    private static byte[] der(Path pem, String type) throws Exception {
        String text = Files.readString(pem);
        assertThat(text).startsWith("-----BEGIN " + type + "-----\n").endsWith("-----END " + type + "-----\n");
        String body = text.replace("-----BEGIN " + type + "-----", "").replace("-----END " + type + "-----", "");
        assertThat(body.lines().mapToInt(String::length).max().orElse(0)).isLessThanOrEqualTo(64);
        return Base64.getMimeDecoder().decode(body);
    }
}
