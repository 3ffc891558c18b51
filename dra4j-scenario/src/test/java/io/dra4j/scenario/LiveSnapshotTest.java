package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kubeconfig side of {@link LiveSnapshot}, checked before any request; the listing is tested in dra4j-testkit. */
class LiveSnapshotTest {
    private static final String KUBECONFIG = String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: a",
            "  cluster: {server: 'https://127.0.0.1:1'}",
            "users:",
            "- name: a",
            "  user: {token: t}",
            "contexts:",
            "- name: staging",
            "  context: {cluster: a, user: a}",
            "- name: prod",
            "  context: {cluster: a, user: a}",
            "");

    @Test
    void aMissingContextIsNamedWithTheOnesThereAre(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("config"), KUBECONFIG);
        assertThatThrownBy(() -> LiveSnapshot.take(file, "dev"))
                .isInstanceOf(LiveClusterException.class)
                .hasMessage("kubeconfig " + file + ": no context \"dev\" (contexts: staging, prod)");
        assertThatThrownBy(() -> LiveSnapshot.take(file, null))
                .isInstanceOf(LiveClusterException.class)
                .hasMessage("kubeconfig " + file + ": no current-context; name one with --context"
                        + " (contexts: staging, prod)");
    }

    @Test
    void anUnreadableKubeconfigIsNamed(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> LiveSnapshot.take(dir.resolve("none"), null))
                .isInstanceOf(LiveClusterException.class)
                .hasMessage("kubeconfig " + dir.resolve("none") + ": cannot read it (no such file)");
        Path bad = Files.writeString(dir.resolve("bad"), "clusters: [");
        assertThatThrownBy(() -> LiveSnapshot.take(bad, null))
                .isInstanceOf(LiveClusterException.class)
                .hasMessageStartingWith("kubeconfig " + bad + ": not YAML: ");
    }

    @Test
    void theDefaultKubeconfigIsTheFirstOfKubeconfigElseTheHomeOne() {
        Path home = Path.of("/home/u");
        assertThat(LiveSnapshot.defaultKubeconfig(Map.of(), home)).isEqualTo(Path.of("/home/u/.kube/config"));
        assertThat(LiveSnapshot.defaultKubeconfig(Map.of("KUBECONFIG", ""), home))
                .isEqualTo(Path.of("/home/u/.kube/config"));
        assertThat(LiveSnapshot.defaultKubeconfig(Map.of("KUBECONFIG", ":/a/one:/b/two"), home))
                .isEqualTo(Path.of("/a/one"));
    }
}
