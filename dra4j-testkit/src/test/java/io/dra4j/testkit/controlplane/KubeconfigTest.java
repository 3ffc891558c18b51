package io.dra4j.testkit.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class KubeconfigTest {
    @Test
    void theClientReadsServerCertificateAuthorityAndTokenFromIt() {
        byte[] ca =
                "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".getBytes(StandardCharsets.US_ASCII);
        String text = ControlPlane.kubeconfig(URI.create("https://127.0.0.1:6443"), ca, "secret");

        Config config = Config.fromKubeconfig(text);
        assertThat(config.getMasterUrl()).isEqualTo("https://127.0.0.1:6443/");
        assertThat(config.getAutoOAuthToken()).isEqualTo("secret");
        assertThat(Base64.getDecoder().decode(config.getCaCertData())).isEqualTo(ca);
        assertThat(config.getCurrentContext().getName()).isEqualTo(ControlPlane.CONTEXT);
    }
}
