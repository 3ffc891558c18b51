package io.dra4j.testkit.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControlPlaneBinariesTest {
    private static final ControlPlaneVersions VERSIONS = new ControlPlaneVersions("v1.37.2", "v3.7.3");

    @Test
    void theSystemPropertyWinsOverTheEnvironmentAndTheCache() {
        ControlPlaneBinaries found = ControlPlaneBinaries.locate(
                Map.of(ControlPlaneBinaries.PROPERTY, "/p", "user.home", "/home/u"),
                Map.of(ControlPlaneBinaries.ENVIRONMENT, "/e", "XDG_CACHE_HOME", "/x"),
                VERSIONS);
        assertThat(found.directory()).isEqualTo(Path.of("/p"));
    }

    @Test
    void theEnvironmentWinsOverTheCache() {
        ControlPlaneBinaries found = ControlPlaneBinaries.locate(
                Map.of("user.home", "/home/u"), Map.of(ControlPlaneBinaries.ENVIRONMENT, "/e"), VERSIONS);
        assertThat(found.directory()).isEqualTo(Path.of("/e"));
    }

    @Test
    void theCacheIsKeyedByTheKubernetesVersionAsTheBuildScriptWritesIt() {
        assertThat(ControlPlaneBinaries.locate(Map.of("user.home", "/home/u"), Map.of(), VERSIONS)
                        .directory())
                .isEqualTo(Path.of("/home/u/.cache/dra4j/k8s-v1.37.2/bin"));
        assertThat(ControlPlaneBinaries.locate(Map.of("user.home", "/home/u"), Map.of("XDG_CACHE_HOME", "/x"), VERSIONS)
                        .directory())
                .isEqualTo(Path.of("/x/dra4j/k8s-v1.37.2/bin"));
        assertThat(ControlPlaneBinaries.locate(
                                Map.of("user.home", "/home/u"),
                                Map.of("XDG_CACHE_HOME", "/x", "DRA4J_CONTROL_PLANE_CACHE", "/c"),
                                VERSIONS)
                        .directory())
                .isEqualTo(Path.of("/c/k8s-v1.37.2/bin"));
    }

    @Test
    void theVersionsAreTheOnesTheBuildScriptReads() throws IOException {
        Path script = RepoFiles.root().resolve("scripts/build-control-plane");
        assertThat(Files.readString(script)).contains("versions.properties");
        ControlPlaneVersions versions = ControlPlaneVersions.load();
        assertThat(versions.kubernetes()).matches("v1\\.\\d+\\.\\d+");
        assertThat(versions.etcd()).matches("v3\\.\\d+\\.\\d+");
    }

    @Test
    void missingBinariesAreNamedWithTheWayToBuildThem(@TempDir Path dir) throws IOException {
        Path etcd = Files.createFile(dir.resolve("etcd"));
        Files.setPosixFilePermissions(etcd, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createFile(dir.resolve("kube-apiserver"));
        ControlPlaneBinaries binaries = new ControlPlaneBinaries(dir);
        assertThat(binaries.missing()).containsExactly("kube-apiserver", "kube-scheduler", "kube-controller-manager");
        assertThat(binaries.unavailableReason())
                .hasValueSatisfying(reason -> assertThat(reason)
                        .contains("kube-apiserver, kube-scheduler, kube-controller-manager missing in " + dir)
                        .contains("scripts/build-control-plane"));
    }

    @Test
    void aCompleteDirectoryIsAvailable(@TempDir Path dir) throws IOException {
        for (String name : ControlPlaneBinaries.NAMES) {
            Path file = Files.createFile(dir.resolve(name));
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        }
        assertThat(new ControlPlaneBinaries(dir).unavailableReason()).isEmpty();
    }
}
