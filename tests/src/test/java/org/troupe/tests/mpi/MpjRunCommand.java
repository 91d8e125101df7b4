package org.troupe.tests.mpi;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line of bin/mpjrun as the tests start it: a JVM of this test's JDK and class path. */
public final class MpjRunCommand {
    private MpjRunCommand() {}

    /** {@code java [jvmOptions] -cp <class path> org.troupe.mpi.run.MpjRun args...}, to add to. */
    public static List<String> of(final List<String> jvmOptions, final List<String> args) {
        final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--sun-misc-unsafe-memory-access=allow"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.troupe.mpi.run.MpjRun"));
        command.addAll(args);
        return command;
    }
}
