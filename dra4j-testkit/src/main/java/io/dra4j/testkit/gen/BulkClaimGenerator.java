package io.dra4j.testkit.gen;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Sometimes replaces a scenario's claims with one claim that needs more than 32 results (upstream's
 * AllocationResultsMaxSize) in total: one request over the limit, two requests that add up over it, a firstAvailable
 * request whose first alternative would pass the limit together with the next request, an All request over a
 * block of more than 32 devices, or a firstAvailable request whose first alternative is over the limit by itself and
 * whose fallback asks for more of the block's failing devices than there are, so that the claim is unschedulable. The devices are one block of identical devices on this node (a few whose
 * {@code size} attribute is 2, so that a selector fails on them, and sometimes one without it, where a selector fails
 * at run time), in a pool and with names of their own, so that no allocated device or DeviceTaintRule selector of the
 * rest of the scenario refers to them.
 *
 * <p>Upstream's search has no pruning bounds, so every shape is chosen to end quickly there: either the claim is
 * rejected before the search, or the limit stops the large alternative at once, or enough matching devices exist
 * for the requests that stay under it, or (unschedulable) the only request's fallback has at most three devices to
 * choose from; an earlier request on the block would make upstream try every choice of its devices first. Rolled after everything else, so that the rest of each seed's scenarios
 * stays as it was.
 */
final class BulkClaimGenerator {
    static final String DRIVER = "driver-bulk";
    static final String CLASS = "class-bulk";
    private static final int LIMIT = 32;
    private static final String SELECTOR = "device.attributes[\"" + DRIVER + "\"].size == 1";
    private static final String FAILING_SELECTOR = "device.attributes[\"" + DRIVER + "\"].size == 2";

    private final Dice dice;

    BulkClaimGenerator(Dice dice) {
        this.dice = dice;
    }

    /** With a small probability, adds the block and its class and makes the bulk claim the scenario's only claim. */
    void maybeAdd(ObjectNode scenario, boolean prioritizedList) {
        if (!dice.chance(0.05)) {
            return;
        }
        int shape = dice.weighted(20, 20, prioritizedList ? 40 : 0, 20, prioritizedList ? 20 : 0);
        // For All, the block alone is over the limit; a selector may bring it under.
        int blockSize = shape == 3 ? dice.between(LIMIT + 1, LIMIT + 4) : dice.between(28, 36);
        int failing = dice.between(0, 3);
        int matching = blockSize - failing;
        ObjectNode slice = Context.apiObject("ResourceSlice", "slice-bulk");
        ((ArrayNode) scenario.get("resourceSlices")).add(slice);
        ObjectNode sliceSpec = slice.putObject("spec");
        sliceSpec.put("driver", DRIVER);
        ObjectNode pool = sliceSpec.putObject("pool");
        pool.put("name", "pool-bulk");
        pool.put("generation", 1);
        pool.put("resourceSliceCount", 1);
        sliceSpec.put("nodeName", Context.NODE);
        ArrayNode devices = sliceSpec.putArray("devices");
        // A device without the attribute makes a selector fail at run time: never in the unschedulable shape.
        int missing = shape != 4 && dice.chance(0.25) ? dice.between(0, blockSize - 1) : -1;
        for (int d = 0; d < blockSize; d++) {
            ObjectNode device = devices.addObject();
            device.put("name", "bulk-" + d);
            if (d != missing) {
                // The failing devices come last, so that a request under the matching count finds its devices first.
                device.putObject("attributes").putObject("size").put("int", d < matching ? 1 : 2);
            }
        }
        ObjectNode deviceClass = Context.apiObject("DeviceClass", CLASS);
        deviceClass
                .putObject("spec")
                .putArray("selectors")
                .addObject()
                .putObject("cel")
                .put("expression", "device.driver == \"" + DRIVER + "\"");
        ((ArrayNode) scenario.get("deviceClasses")).add(deviceClass);

        ObjectNode claim = Context.apiObject("ResourceClaim", "claim-bulk");
        ArrayNode requests = claim.putObject("spec").putObject("devices").putArray("requests");
        switch (shape) {
            case 0 -> exact(requests, "req-0", dice.between(LIMIT + 1, LIMIT + 8), dice.chance(0.5));
            case 1 -> {
                int first = dice.between(2, LIMIT - 1);
                exact(requests, "req-0", first, dice.chance(0.5));
                exact(requests, "req-1", dice.between(LIMIT + 1 - first, LIMIT), false);
            }
            case 2 -> firstAvailable(requests, matching, blockSize);
            case 4 -> tooFewFailing(requests, failing);
            default -> {
                ObjectNode all = requests.addObject();
                all.put("name", "req-0");
                ObjectNode exactly = all.putObject("exactly");
                exactly.put("deviceClassName", CLASS);
                if (dice.chance(0.5)) {
                    exactly.putArray("selectors").addObject().putObject("cel").put("expression", SELECTOR);
                }
                exactly.put("allocationMode", "All");
            }
        }
        ArrayNode claims = Context.array();
        claims.add(claim);
        scenario.set("claims", claims);
    }

    /**
     * req-0 prefers {@code big} devices (at most the matching ones, or over the limit by itself) and falls back to
     * one or two; req-1 asks for so many that the preferred alternative passes the limit while the fallback fits.
     */
    private void firstAvailable(ArrayNode requests, int matching, int blockSize) {
        boolean overByItself = dice.chance(0.3);
        int big =
                overByItself ? dice.between(LIMIT + 1, LIMIT + 8) : dice.between(LIMIT / 2, Math.min(matching, LIMIT));
        int small = dice.between(1, 2);
        int rest = overByItself ? dice.between(1, 4) : dice.between(LIMIT + 1 - big, LIMIT - small);
        ObjectNode request = requests.addObject();
        request.put("name", "req-0");
        ArrayNode alternatives = request.putArray("firstAvailable");
        ObjectNode many = alternatives.addObject();
        many.put("name", "many");
        fill(many, big, !overByItself && dice.chance(0.6));
        ObjectNode few = alternatives.addObject();
        few.put("name", "few");
        fill(few, small, false);
        exact(requests, "req-1", Math.min(rest, blockSize - small), false);
    }

    /**
     * req-0 prefers more devices than the limit allows, which upstream gives up at once, and falls back to one to three
     * more of the failing devices (size 2) than the block has: no device choice can succeed.
     */
    private void tooFewFailing(ArrayNode requests, int failing) {
        ObjectNode request = requests.addObject();
        request.put("name", "req-0");
        ArrayNode alternatives = request.putArray("firstAvailable");
        ObjectNode many = alternatives.addObject();
        many.put("name", "many");
        fill(many, dice.between(LIMIT + 1, LIMIT + 8), false);
        ObjectNode few = alternatives.addObject();
        few.put("name", "few");
        few.put("deviceClassName", CLASS);
        few.putArray("selectors").addObject().putObject("cel").put("expression", FAILING_SELECTOR);
        few.put("allocationMode", "ExactCount");
        few.put("count", failing + dice.between(1, 3));
    }

    private void exact(ArrayNode requests, String name, int count, boolean selector) {
        ObjectNode request = requests.addObject();
        request.put("name", name);
        fill(request.putObject("exactly"), count, selector);
    }

    private static void fill(ObjectNode request, int count, boolean selector) {
        request.put("deviceClassName", CLASS);
        if (selector) {
            request.putArray("selectors").addObject().putObject("cel").put("expression", SELECTOR);
        }
        request.put("allocationMode", "ExactCount");
        request.put("count", count);
    }
}
