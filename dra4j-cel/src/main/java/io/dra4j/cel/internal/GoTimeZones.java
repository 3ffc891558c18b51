package io.dra4j.cel.internal;

import dev.cel.common.CelOptions;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelFunctionOverload;
import dev.cel.runtime.CelInternalRuntimeLibrary;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.standard.CelStandardOverload;
import dev.cel.runtime.standard.GetDateFunction.GetDateOverload;
import dev.cel.runtime.standard.GetDayOfMonthFunction.GetDayOfMonthOverload;
import dev.cel.runtime.standard.GetDayOfWeekFunction.GetDayOfWeekOverload;
import dev.cel.runtime.standard.GetDayOfYearFunction.GetDayOfYearOverload;
import dev.cel.runtime.standard.GetFullYearFunction.GetFullYearOverload;
import dev.cel.runtime.standard.GetHoursFunction.GetHoursOverload;
import dev.cel.runtime.standard.GetMillisecondsFunction.GetMillisecondsOverload;
import dev.cel.runtime.standard.GetMinutesFunction.GetMinutesOverload;
import dev.cel.runtime.standard.GetMonthFunction.GetMonthOverload;
import dev.cel.runtime.standard.GetSecondsFunction.GetSecondsOverload;
import java.util.Set;

/**
 * The timestamp accessors with a time zone ({@code t.getHours(zone)} and the other nine) as cel-go reads an empty
 * zone: cel-go passes a zone without a colon to Go's {@code time.LoadLocation}, which returns UTC for {@code ""};
 * java.time has no zone of that name, and cel-java fails. Every other zone goes to cel-java's own accessor.
 */
final class GoTimeZones implements CelInternalRuntimeLibrary {

    static final Set<CelStandardOverload> REPLACED = Set.of(
            GetFullYearOverload.TIMESTAMP_TO_YEAR_WITH_TZ,
            GetMonthOverload.TIMESTAMP_TO_MONTH_WITH_TZ,
            GetDayOfYearOverload.TIMESTAMP_TO_DAY_OF_YEAR_WITH_TZ,
            GetDayOfMonthOverload.TIMESTAMP_TO_DAY_OF_MONTH_WITH_TZ,
            GetDateOverload.TIMESTAMP_TO_DAY_OF_MONTH_1_BASED_WITH_TZ,
            GetDayOfWeekOverload.TIMESTAMP_TO_DAY_OF_WEEK_WITH_TZ,
            GetHoursOverload.TIMESTAMP_TO_HOURS_WITH_TZ,
            GetMinutesOverload.TIMESTAMP_TO_MINUTES_WITH_TZ,
            GetSecondsOverload.TIMESTAMP_TO_SECONDS_WITH_TZ,
            GetMillisecondsOverload.TIMESTAMP_TO_MILLISECONDS_WITH_TZ);

    /** The zone Go's time.LoadLocation returns for the empty name. */
    private static final String EMPTY_ZONE = "UTC";

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder, RuntimeEquality equality, CelOptions options) {
        for (CelStandardOverload overload : REPLACED) {
            CelFunctionBinding standard = overload.newFunctionBinding(options, equality);
            CelFunctionOverload accessor = standard.getDefinition();
            builder.addFunctionBindings(CelFunctionBinding.from(
                    standard.getOverloadId(), standard.getArgTypes(), args -> {
                        if ("".equals(args[1])) {
                            return accessor.apply(new Object[] {args[0], EMPTY_ZONE});
                        }
                        return accessor.apply(args);
                    }));
        }
    }

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder) {
        throw new UnsupportedOperationException("needs the runtime equality");
    }
}
