package io.dra4j.cel;

/**
 * The DRA feature gates that upstream's CEL compiler is parameterised with.
 *
 * <p>The scheduler compiles selectors in the StoredExpressions environment, which ignores feature predicates:
 * at Kubernetes 1.37 the {@code device} variable then always has {@code allowMultipleAllocations}, attribute values
 * are typed {@code dyn}, list attributes are passed through and {@code includes()} is declared, whatever these flags
 * say. The flags are kept so that environments are cached per feature set exactly as upstream does.
 *
 * @param consumableCapacity DRAConsumableCapacity
 * @param listTypeAttributes DRAListTypeAttributes
 */
public record CelFeatures(boolean consumableCapacity, boolean listTypeAttributes) {}
