package io.dra4j.testkit.controlplane;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The versions of the real control plane the tests run against, as {@code versions.properties} beside this class
 * defines them; {@code scripts/build-control-plane} reads the same file.
 *
 * @param kubernetes kube-apiserver, kube-scheduler and kube-controller-manager, e.g. {@code v1.37.2}
 * @param etcd       etcd, e.g. {@code v3.7.3}
 */
public record ControlPlaneVersions(String kubernetes, String etcd) {
    private static final String RESOURCE = "versions.properties";

    /** The versions this build of the testkit was made for. */
    public static ControlPlaneVersions load() {
        Properties properties = new Properties();
        try (InputStream in = ControlPlaneVersions.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(
                        RESOURCE + " is missing beside " + ControlPlaneVersions.class.getName());
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        return new ControlPlaneVersions(required(properties, "kubernetes"), required(properties, "etcd"));
    }

    private static String required(Properties properties, String key) {
        String value = properties.getProperty(key, "").trim();
        if (value.isEmpty()) {
            throw new IllegalStateException(RESOURCE + " sets no " + key + "=");
        }
        return value;
    }
}
