package io.dra4j.cel.internal;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import io.dra4j.cel.KubernetesLibraries;
import java.util.Optional;

/**
 * The compile-time type of the {@code device} variable, {@code kubernetes.DRADevice}.
 *
 * <p>StoredExpressions at 1.37 declares the newest device type whatever the feature gates say: it has
 * {@code allowMultipleAllocations} and types attribute values as {@code dyn} (so that {@code exists}/{@code all}
 * work on list attributes). At run time the variable is a plain map, which cel-java selects fields from.
 */
public final class DeviceType {

    public static final String VARIABLE = "device";
    public static final String NAME = "kubernetes.DRADevice";
    public static final CelType QUANTITY = KubernetesLibraries.QUANTITY_TYPE;

    public static final CelType ATTRIBUTES =
            MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, SimpleType.DYN));
    public static final CelType CAPACITY =
            MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, QUANTITY));

    private static final ImmutableMap<String, CelType> FIELDS = ImmutableMap.of(
            DeviceViews.DRIVER,
            SimpleType.STRING,
            DeviceViews.ALLOW_MULTIPLE_ALLOCATIONS,
            SimpleType.BOOL,
            DeviceViews.ATTRIBUTES,
            ATTRIBUTES,
            DeviceViews.CAPACITY,
            CAPACITY);

    public static final StructType TYPE =
            StructType.create(NAME, FIELDS.keySet(), field -> Optional.ofNullable(FIELDS.get(field)));

    /** Makes {@code kubernetes.DRADevice} known to the type checker. */
    public static final CelTypeProvider PROVIDER = new CelTypeProvider() {
        @Override
        public ImmutableList<CelType> types() {
            return ImmutableList.of(TYPE);
        }

        @Override
        public Optional<CelType> findType(String typeName) {
            return NAME.equals(typeName) ? Optional.of(TYPE) : Optional.empty();
        }
    };

    private DeviceType() {}
}
