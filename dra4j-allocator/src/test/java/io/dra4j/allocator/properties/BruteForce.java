package io.dra4j.allocator.properties;

import java.util.ArrayList;
import java.util.List;

/**
 * An exhaustive search for the simplified scenarios (ExactCount requests only, no admin access, no subrequests):
 * for each request in turn it tries every subset of the right size of the devices that request may use on its own,
 * and accepts a combination when {@link Reference#couplingViolations} finds nothing wrong. Every rule that couples
 * devices only gets harder as devices are added, so a partial combination with a violation is not extended.
 */
final class BruteForce {
    private final Reference ref;
    private final List<Slot> slots = new ArrayList<>();

    private record Slot(int claim, Reference.Effective request, List<Inputs.PublishedDevice> eligible) {
    }

    private BruteForce(Inputs in) {
        this.ref = new Reference(in);
        for (int ci = 0; ci < in.claims().size(); ci++) {
            for (List<Reference.Effective> alternatives : Reference.requests(in.claims().get(ci))) {
                if (alternatives.size() != 1 || alternatives.get(0).all() || alternatives.get(0).admin()) {
                    throw new IllegalArgumentException("brute force handles only plain ExactCount requests");
                }
                Reference.Effective r = alternatives.get(0);
                List<Inputs.PublishedDevice> eligible = new ArrayList<>();
                for (Inputs.PublishedDevice d : ref.candidates()) {
                    if (usableAlone(r, d)) {
                        eligible.add(d);
                    }
                }
                slots.add(new Slot(ci, r, eligible));
            }
        }
    }

    /** Whether any combination of devices satisfies all claims. */
    static boolean solvable(Inputs in) {
        BruteForce b = new BruteForce(in);
        for (Slot s : b.slots) {
            if (s.eligible().size() < s.request().count()) {
                return false;
            }
        }
        return b.fill(0, 0, 0, new ArrayList<>());
    }

    /** The checks that involve one request and one device only. */
    private boolean usableAlone(Reference.Effective r, Inputs.PublishedDevice d) {
        if (!ref.selects(r, d) || !ref.taintsTolerated(r, d)) {
            return false;
        }
        if (ref.in.state().allocatedDevices().contains(d.id())) {
            return false;
        }
        if (!ref.partitionable && !Reference.consumesCounters(d.device()).isEmpty()) {
            return false;
        }
        return !ref.consumable || Reference.fitsAlone(r, d.device());
    }

    /** Chooses devices for slot {@code slot} from position {@code from} on; {@code chosen} of them so far. */
    private boolean fill(int slot, int from, int chosen, List<Reference.Choice> choices) {
        if (slot == slots.size()) {
            return true;
        }
        Slot s = slots.get(slot);
        if (chosen == s.request().count()) {
            return fill(slot + 1, 0, 0, choices);
        }
        for (int i = from; i < s.eligible().size(); i++) {
            choices.add(new Reference.Choice(s.claim(), s.request(), s.eligible().get(i)));
            if (ref.couplingViolations(choices, ref.in.claims()).isEmpty() && fill(slot, i + 1, chosen + 1, choices)) {
                return true;
            }
            choices.remove(choices.size() - 1);
        }
        return false;
    }
}
