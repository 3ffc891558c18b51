package io.dra4j.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.testkit.controlplane.ControlPlane;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneOptions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * {@code convert}'s output against a real kube-apiserver 1.37.2: every converted object of the realistic manifests
 * is created through the API (status through the status subresource), read back, and compared with what was sent
 * plus the defaults the API server applies, minus the fields the server sets (uid, resourceVersion, generation,
 * creationTimestamp, managedFields).
 */
class ConvertApiServerIT {
    private static final List<String> MANIFESTS = List.of(
            "convert/example-driver.yaml",
            "convert/nvidia-v1beta1.yaml",
            "convert/partitionable-1.35.yaml",
            "convert/v1alpha3-1.32.yaml",
            "golden/convert/helm-rendered.yaml");
    private static final Map<String, String> PLURALS = Map.of(
            "DeviceClass",
            "deviceclasses",
            "ResourceClaim",
            "resourceclaims",
            "ResourceClaimTemplate",
            "resourceclaimtemplates",
            "ResourceSlice",
            "resourceslices",
            "DeviceTaintRule",
            "devicetaintrules");
    private static final Set<String> CLUSTER_SCOPED = Set.of("DeviceClass", "ResourceSlice", "DeviceTaintRule");
    private static final List<String> SERVER_SET =
            List.of("uid", "resourceVersion", "generation", "creationTimestamp", "managedFields");
    private static final YAMLMapper YAML = YAMLMapper.builder().build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static ControlPlane plane;

    @BeforeAll
    static void start() {
        plane = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.apiServerOnly());
    }

    @AfterAll
    static void stop() {
        if (plane != null) {
            plane.close();
        }
    }

    @Test
    void convertedObjectsAreAcceptedAndReadBackEqual() throws IOException {
        KubernetesClient client = plane.client();
        ApiConverter converter = new ApiConverter();
        Set<String> namespaces = new HashSet<>(Set.of("default"));
        int compared = 0;
        List<String> refused = new ArrayList<>();
        for (String name : MANIFESTS) {
            List<ObjectNode> converted = new ArrayList<>();
            // Document by document: helm-rendered.yaml has broken documents on purpose; convert reports them.
            for (String doc : resource(name).split("(?m)^---[^\n]*\n")) {
                ApiConverter.Result result = converter.toV1(name, doc);
                if (result.hasErrors()) {
                    refused.add(name);
                } else {
                    converted.addAll(v1Objects(result.output()));
                }
            }
            for (ObjectNode sent : converted) {
                String kind = sent.path("kind").asString();
                String what = name + ": " + kind + " "
                        + sent.path("metadata").path("name").asString();
                String ns = CLUSTER_SCOPED.contains(kind)
                        ? null
                        : sent.path("metadata").path("namespace").asString("default");
                if (ns != null && namespaces.add(ns)) {
                    // Labelled so that adminAccess requests are allowed there, as upstream requires.
                    client.resource(new NamespaceBuilder()
                                    .withNewMetadata()
                                    .withName(ns)
                                    .addToLabels("resource.kubernetes.io/admin-access", "true")
                                    .endMetadata()
                                    .build())
                            .create();
                }
                ResourceDefinitionContext context = new ResourceDefinitionContext.Builder()
                        .withGroup("resource.k8s.io")
                        .withVersion("v1")
                        .withKind(kind)
                        .withPlural(PLURALS.get(kind))
                        .withNamespaced(ns != null)
                        .build();
                var op = ns == null
                        ? client.genericKubernetesResources(context)
                        : client.genericKubernetesResources(context).inNamespace(ns);
                GenericKubernetesResource object = generic(client, sent);
                GenericKubernetesResource created;
                try {
                    created = op.resource(object).create();
                    if (sent.has("status")) {
                        object.setMetadata(created.getMetadata());
                        created = op.resource(object).updateStatus();
                    }
                } catch (KubernetesClientException e) {
                    throw new AssertionError(what + ": refused by kube-apiserver: " + e.getMessage(), e);
                }
                JsonNode got = JSON.readTree(client.getKubernetesSerialization()
                        .asJson(op.withName(created.getMetadata().getName()).get()));
                assertThat(withoutServerFields(got)).as(what).isEqualTo(expected(sent, got));
                op.withName(created.getMetadata().getName()).delete();
                compared++;
            }
        }
        assertThat(refused).as("documents convert refuses").containsOnly("golden/convert/helm-rendered.yaml");
        assertThat(compared).as("objects created and compared").isGreaterThan(10);
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ConvertApiServerIT.class.getResourceAsStream("/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The v1 resource.k8s.io objects of the converted text, list items split out. */
    private static List<ObjectNode> v1Objects(String text) throws IOException {
        List<ObjectNode> out = new ArrayList<>();
        try (var it = YAML.readerFor(JsonNode.class).<JsonNode>readValues(text)) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc == null || !doc.isObject()) {
                    continue;
                }
                List<JsonNode> items =
                        doc.path("kind").asString().endsWith("List") ? toList(doc.path("items")) : List.of(doc);
                for (JsonNode o : items) {
                    if (o.path("apiVersion").asString().equals("resource.k8s.io/v1")
                            && PLURALS.containsKey(o.path("kind").asString())) {
                        out.add((ObjectNode) o);
                    }
                }
            }
        }
        return out;
    }

    private static List<JsonNode> toList(JsonNode array) {
        List<JsonNode> l = new ArrayList<>();
        array.forEach(l::add);
        return l;
    }

    private static GenericKubernetesResource generic(KubernetesClient client, JsonNode sent) {
        return client.getKubernetesSerialization()
                .unmarshal(JSON.writeValueAsString(sent), GenericKubernetesResource.class);
    }

    private static JsonNode withoutServerFields(JsonNode got) {
        ObjectNode copy = (ObjectNode) got.deepCopy();
        ObjectNode meta = (ObjectNode) copy.path("metadata");
        SERVER_SET.forEach(meta::remove);
        return copy;
    }

    /**
     * What the server should hold: the sent object with the v1 defaults (pkg/apis/resource/v1/defaults.go:
     * allocationMode ExactCount, count 1 for ExactCount; a device taint's timeAdded, whose value the server picks and
     * is taken from its answer), the default namespace on namespaced objects, and the empty struct Go's JSON writes
     * for a template's metadata.
     */
    private static JsonNode expected(ObjectNode sent, JsonNode got) {
        ObjectNode e = sent.deepCopy();
        ObjectNode meta = (ObjectNode) e.path("metadata");
        if (!CLUSTER_SCOPED.contains(e.path("kind").asString()) && !meta.has("namespace")) {
            meta.put("namespace", "default");
        }
        // Struct fields that are not pointers (k8s.io/api resource/v1 types.go): Go's JSON writes them even when
        // empty, omitempty notwithstanding.
        String kind = e.path("kind").asString();
        if (kind.equals("ResourceClaimTemplate")
                && e.path("spec").isObject()
                && !e.path("spec").has("metadata")) {
            ((ObjectNode) e.path("spec")).putObject("metadata");
        }
        if ((kind.equals("ResourceClaim") || kind.equals("DeviceTaintRule")) && !e.has("status")) {
            e.putObject("status");
        }
        JsonNode devices = e.path("kind").asString().equals("ResourceClaimTemplate")
                ? e.path("spec").path("spec").path("devices")
                : e.path("spec").path("devices");
        for (JsonNode r : devices.path("requests")) {
            if (r.has("exactly")) {
                defaultRequest((ObjectNode) r.get("exactly"));
            }
            r.path("firstAvailable").forEach(s -> defaultRequest((ObjectNode) s));
        }
        JsonNode sliceDevices = e.path("kind").asString().equals("ResourceSlice")
                ? e.path("spec").path("devices")
                : JSON.createArrayNode();
        JsonNode gotDevices = got.path("spec").path("devices");
        for (int i = 0; i < sliceDevices.size(); i++) {
            JsonNode taints = sliceDevices.get(i).path("taints");
            for (int j = 0; j < taints.size(); j++) {
                if (!taints.get(j).has("timeAdded")) {
                    ((ObjectNode) taints.get(j))
                            .set(
                                    "timeAdded",
                                    gotDevices.path(i).path("taints").path(j).path("timeAdded"));
                }
            }
        }
        if (e.path("kind").asString().equals("DeviceTaintRule")
                && e.path("spec").path("taint").isObject()
                && !e.path("spec").path("taint").has("timeAdded")) {
            ((ObjectNode) e.path("spec").path("taint"))
                    .set("timeAdded", got.path("spec").path("taint").path("timeAdded"));
        }
        return e;
    }

    private static void defaultRequest(ObjectNode r) {
        if (!r.has("allocationMode")) {
            r.put("allocationMode", "ExactCount");
        }
        if (r.path("allocationMode").asString().equals("ExactCount")
                && r.path("count").asLong(0) == 0) {
            r.put("count", 1);
        }
    }
}
