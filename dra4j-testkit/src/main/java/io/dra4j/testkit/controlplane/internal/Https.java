package io.dra4j.testkit.controlplane.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Readiness checks: plain HTTP (etcd), or TLS against a component's own serving certificate, trusting exactly the
 * certificates in the PEM file the component wrote into its {@code --cert-dir} (the self-signed serving certificate
 * and its CA).
 */
public final class Https {
    private final HttpClient client;
    private final String bearerToken;

    private Https(HttpClient client, String bearerToken) {
        this.client = client;
        this.bearerToken = bearerToken;
    }

    /** A client trusting the certificates in {@code pem}, or empty while the component has not written it yet. */
    public static Optional<Https> trusting(Path pem, String bearerToken) {
        if (!Files.isRegularFile(pem)) {
            return Optional.empty();
        }
        try (InputStream in = Files.newInputStream(pem)) {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate certificate :
                    CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                store.setCertificateEntry("c" + i++, certificate);
            }
            if (i == 0) {
                return Optional.empty();
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            // HTTP/1.1: over HTTP/2 the components answer an unauthenticated client (the probes of kube-scheduler
            // and kube-controller-manager are anonymous) with GOAWAY instead of a response.
            return Optional.of(new Https(
                    HttpClient.newBuilder()
                            .sslContext(context)
                            .version(HttpClient.Version.HTTP_1_1)
                            .connectTimeout(Duration.ofSeconds(2))
                            .build(),
                    bearerToken));
        } catch (IOException | GeneralSecurityException e) {
            // Half-written certificate file: the caller polls again.
            return Optional.empty();
        }
    }

    /** The status code and body of a GET, or empty when the server does not answer (yet). */
    public Optional<HttpResponse<String>> get(URI uri) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET();
        if (bearerToken != null) {
            request.header("Authorization", "Bearer " + bearerToken);
        }
        return send(client, request.build());
    }

    /** A client for plain HTTP (etcd's client port). */
    public static Https plain() {
        return new Https(
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build(), null);
    }

    private static Optional<HttpResponse<String>> send(HttpClient client, HttpRequest request) {
        try {
            return Optional.of(client.send(request, HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
