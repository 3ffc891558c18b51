package io.dra4j.cli;

import io.dra4j.sim.SimulationOptions;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** {@code --gang}, for the commands that simulate: pods marked as gangs, placed all or nothing. */
final class GangOptions {
    @Option(
            names = "--gang",
            paramLabel = "LABEL-KEY|SELECTOR",
            description = "mark pods as a gang, placed all or nothing: by a label key, the pods of a namespace sharing "
                    + "a value of it are one gang per value (batch.kubernetes.io/job-name: each Job's pods); by a "
                    + "label selector (-l syntax), the pods of a namespace it selects; repeatable. PodGroups with a "
                    + "gang policy are gangs without it")
    List<String> marks = new ArrayList<>();

    /** @throws CommandLine.ParameterException naming the mark that does not parse */
    List<SimulationOptions.Gang> gangs(CommandLine cmd) {
        List<SimulationOptions.Gang> out = new ArrayList<>();
        for (String mark : marks) {
            try {
                out.add(new SimulationOptions.Gang(mark));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cmd, "--gang " + mark + ": " + e.getMessage());
            }
        }
        return out;
    }
}
