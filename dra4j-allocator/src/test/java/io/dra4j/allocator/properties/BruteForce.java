package io.dra4j.allocator.properties;

import java.util.ArrayList;
import java.util.List;

/**
 * An exhaustive search for scenarios without allocationMode All: for each request in turn, each of its
 * alternatives (the request itself, or each subrequest of a firstAvailable request), and every subset of the right
 * size of the devices that alternative may use on its own, it accepts a combination when
 * {@link Reference#couplingViolations} finds nothing wrong. Every rule that couples devices only gets harder as
 * devices are added, so a partial combination with a violation is not extended.
 */
final class BruteForce {
    private final Reference ref;
    private final List<List<Slot>> requests = new ArrayList<>();

    /** One alternative of a request with the devices it may use on its own. */
    private record Slot(int claim, Reference.Effective request, List<Inputs.PublishedDevice> eligible) {}

    private BruteForce(Inputs in) {
        this.ref = new Reference(in);
        for (int ci = 0; ci < in.claims().size(); ci++) {
            for (List<Reference.Effective> alternatives :
                    Reference.requests(in.claims().get(ci))) {
                List<Slot> slots = new ArrayList<>();
                for (Reference.Effective r : alternatives) {
                    if (r.all()) {
                        throw new IllegalArgumentException("brute force handles only ExactCount requests");
                    }
                    List<Inputs.PublishedDevice> eligible = new ArrayList<>();
                    for (Inputs.PublishedDevice d : ref.candidates()) {
                        if (usableAlone(r, d)) {
                            eligible.add(d);
                        }
                    }
                    slots.add(new Slot(ci, r, eligible));
                }
                requests.add(slots);
            }
        }
    }

    /** Whether any combination of devices satisfies all claims. */
    static boolean solvable(Inputs in) {
        BruteForce b = new BruteForce(in);
        for (List<Slot> alternatives : b.requests) {
            if (alternatives.stream()
                    .allMatch(s -> s.eligible().size() < s.request().count())) {
                return false;
            }
        }
        return b.fill(0, new ArrayList<>());
    }

    /** The checks that involve one request and one device only. */
    private boolean usableAlone(Reference.Effective r, Inputs.PublishedDevice d) {
        if (!ref.selects(r, d) || !ref.taintsTolerated(r, d)) {
            return false;
        }
        if (!r.admin() && ref.in.state().allocatedDevices().contains(d.id())) {
            return false;
        }
        if (!ref.partitionable && !Reference.consumesCounters(d.device()).isEmpty()) {
            return false;
        }
        return !ref.consumable || Reference.fitsAlone(r, d.device());
    }

    /** Satisfies request {@code request} and all after it, given the choices made so far. */
    private boolean fill(int request, List<Reference.Choice> choices) {
        if (request == requests.size()) {
            return true;
        }
        for (Slot alternative : requests.get(request)) {
            if (choose(request, alternative, 0, 0, choices)) {
                return true;
            }
        }
        return false;
    }

    /** Chooses devices for one alternative from position {@code from} on; {@code chosen} of them so far. */
    private boolean choose(int request, Slot s, int from, int chosen, List<Reference.Choice> choices) {
        if (chosen == s.request().count()) {
            return fill(request + 1, choices);
        }
        for (int i = from; i < s.eligible().size(); i++) {
            choices.add(
                    new Reference.Choice(s.claim(), s.request(), s.eligible().get(i)));
            if (ref.couplingViolations(choices, ref.in.claims()).isEmpty()
                    && choose(request, s, i + 1, chosen + 1, choices)) {
                return true;
            }
            choices.remove(choices.size() - 1);
        }
        return false;
    }
}
