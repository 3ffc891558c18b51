package io.dra4j.testkit.gen;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Generates the ResourceClaims to allocate: one to three claims of one to three requests each, with exact or
 * firstAvailable requests, both allocation modes, selectors, admin access, tolerations, capacity requests,
 * matchAttribute and distinctAttribute constraints and opaque config. Counts are drawn against the number of devices
 * that exist, so that many claims barely fit or do not fit at all.
 */
final class ClaimGenerator {
    private static final List<String> CONSTRAINT_ATTRIBUTES = List.of("model", "index", "fw", "healthy", "links");

    private final Context ctx;
    private final Dice dice;
    private final List<String> classes;

    ClaimGenerator(Context ctx, List<String> classes) {
        this.ctx = ctx;
        this.dice = ctx.dice;
        this.classes = classes;
    }

    ArrayNode generate() {
        ArrayNode claims = Context.array();
        int n = 1 + dice.weighted(65, 27, 8);
        for (int i = 0; i < n; i++) {
            claims.add(claim("claim-" + i));
        }
        return claims;
    }

    private ObjectNode claim(String name) {
        ObjectNode claim = Context.apiObject("ResourceClaim", name);
        if (dice.chance(0.2)) {
            ((ObjectNode) claim.get("metadata")).put("namespace", "default");
        }
        ObjectNode devices = claim.putObject("spec").putObject("devices");
        ArrayNode requests = devices.putArray("requests");
        List<String> names = new ArrayList<>();
        List<String> references = new ArrayList<>();
        int n = 1 + dice.weighted(65, 28, 7);
        for (int r = 0; r < n; r++) {
            String requestName = "req-" + r;
            names.add(requestName);
            references.add(requestName);
            ObjectNode request = requests.addObject();
            request.put("name", requestName);
            if (ctx.use("DRAPrioritizedList", 0.3, 0.015)) {
                ArrayNode subrequests = request.putArray("firstAvailable");
                int subs = 2 + dice.weighted(70, 30);
                for (int s = 0; s < subs; s++) {
                    ObjectNode sub = subrequests.addObject();
                    sub.put("name", "sub-" + s);
                    fill(sub, false);
                    references.add(requestName + "/sub-" + s);
                }
            } else {
                fill(request.putObject("exactly"), true);
            }
        }
        if (dice.chance(0.25)) {
            ArrayNode constraints = devices.putArray("constraints");
            int c = 1 + dice.weighted(80, 20);
            for (int i = 0; i < c; i++) {
                constraints.add(constraint(names, references));
            }
        }
        if (dice.chance(0.15)) {
            ObjectNode config = devices.putArray("config").addObject();
            if (dice.chance(0.6)) {
                config.set("requests", Context.strings(dice.pick(dice.chance(0.7) ? names : references)));
            }
            opaque(config, dice.pick(ctx.drivers), "claim");
        }
        return claim;
    }

    /** The fields an exact request and a subrequest share; admin access only exists on exact requests. */
    private void fill(ObjectNode request, boolean exact) {
        request.put("deviceClassName", dice.chance(0.005) ? "class-missing" : dice.pick(classes));
        int selectors = dice.weighted(70, 22, 8);
        if (selectors > 0) {
            ArrayNode list = request.putArray("selectors");
            for (int i = 0; i < selectors; i++) {
                list.addObject().putObject("cel").put("expression", Selectors.request(ctx));
            }
        }
        if (dice.chance(0.13)) {
            request.put("allocationMode", "All");
        } else {
            request.put("allocationMode", "ExactCount");
            request.put("count", count());
        }
        if (exact && ctx.use("DRAAdminAccess", 0.12, 0.01)) {
            request.put("adminAccess", true);
        }
        if (ctx.use("DRADeviceTaints", 0.35, 0.05)) {
            ArrayNode tolerations = request.putArray("tolerations");
            int n = 1 + dice.weighted(80, 20);
            for (int i = 0; i < n; i++) {
                tolerations.add(toleration());
            }
        }
        if (ctx.use("DRAConsumableCapacity", 0.35, 0.01)) {
            ObjectNode requests = request.putObject("capacity").putObject("requests");
            if (dice.chance(0.7)) {
                requests.put("bandwidth", dice.pick("1", "2", "3", "5", "500m", "9"));
            }
            if (requests.isEmpty() || dice.chance(0.2)) {
                requests.put("memory", dice.pick("1Gi", "2Gi"));
            }
        }
    }

    /** Mostly small counts, sometimes as many devices as exist, or one more. */
    private long count() {
        int devices = Math.max(1, ctx.devices.size());
        return switch (dice.weighted(66, 26, 5, 3)) {
            case 0 -> 1;
            case 1 -> 2;
            case 2 -> devices;
            default -> devices + 1L;
        };
    }

    private ObjectNode toleration() {
        ObjectNode t = Context.object();
        switch (dice.weighted(40, 35, 15, 10)) {
            case 0 -> {
                t.put("key", dice.pick("key1", "key2"));
                t.put("operator", "Exists");
            }
            case 1 -> {
                t.put("key", dice.pick("key1", "key2"));
                t.put("operator", "Equal");
                t.put("value", dice.pick("value1", "value2"));
            }
            case 2 -> t.put("operator", "Exists");
            default -> {
                t.put("key", "key1");
                t.put("operator", "Exists");
                t.put("effect", "NoExecute");
                t.put("tolerationSeconds", dice.pick(0, 60));
                return t;
            }
        }
        if (dice.chance(0.4)) {
            t.put("effect", dice.pick("NoSchedule", "NoExecute"));
        }
        return t;
    }

    private ObjectNode constraint(List<String> names, List<String> references) {
        ObjectNode constraint = Context.object();
        if (dice.chance(0.55)) {
            ArrayNode requests = constraint.putArray("requests");
            List<String> pool = dice.chance(0.8) ? names : references;
            for (String r : pool) {
                if (dice.chance(0.7)) {
                    requests.add(r);
                }
            }
            if (requests.isEmpty()) {
                requests.add(dice.pick(pool));
            }
        }
        String domain = dice.chance(0.1) ? "dra.example.com" : dice.pick(ctx.drivers);
        String attribute =
                domain + "/" + (domain.equals("dra.example.com") ? "family" : dice.pick(CONSTRAINT_ATTRIBUTES));
        constraint.put(dice.chance(0.6) ? "matchAttribute" : "distinctAttribute", attribute);
        return constraint;
    }

    static void opaque(ObjectNode config, String driver, String value) {
        ObjectNode opaque = config.putObject("opaque");
        opaque.put("driver", driver);
        opaque.putObject("parameters").put("source", value);
    }
}
