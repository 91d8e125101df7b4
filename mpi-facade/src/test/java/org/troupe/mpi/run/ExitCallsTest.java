package org.troupe.mpi.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.InvokeInstruction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.troupe.mpi.programs.ExitingRank;
import org.troupe.mpi.programs.Hello;

class ExitCallsTest {
    private static byte[] classFile(final Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            return in.readAllBytes();
        }
    }

    /** The methods a class file's code calls, as owner.name. */
    private static List<String> calls(final byte[] classFile) {
        final List<String> calls = new ArrayList<>();
        for (final MethodModel m : ClassFile.of().parse(classFile).methods()) {
            m.code()
                    .ifPresent(code -> code.forEach(e -> {
                        if (e instanceof InvokeInstruction i) {
                            calls.add(i.owner().asInternalName() + "." + i.name());
                        }
                    }));
        }
        return calls;
    }

    @Test
    void shouldRewriteEveryExitCall() throws IOException {
        final byte[] rewritten = ExitCalls.rewrite(
                ExitingRank.class.getName(),
                classFile(ExitingRank.class),
                getClass().getClassLoader());
        assertNotNull(rewritten);
        final List<String> calls = calls(rewritten);
        assertTrue(
                calls.contains("org/troupe/mpi/run/RankExit.exit")
                        && calls.contains("org/troupe/mpi/run/RankExit" + ".halt"),
                calls.toString());
        assertFalse(
                calls.contains("java/lang/System.exit")
                        || calls.contains("java/lang/Runtime.exit")
                        || calls.contains("java/lang/Runtime.halt"),
                calls.toString());
    }

    @Test
    void shouldLeaveAClassWithoutExitCallsAsItIs() throws IOException {
        assertNull(ExitCalls.rewrite(
                Hello.class.getName(), classFile(Hello.class), getClass().getClassLoader()));
    }

    @Test
    void shouldLeaveWhatItCannotParseAsItIs() {
        final byte[] notAClass = "exit halt: not a class file".getBytes(StandardCharsets.US_ASCII);
        assertNull(ExitCalls.rewrite("Broken", notAClass, getClass().getClassLoader()));
    }
}
