package org.troupe.deploy.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading descriptors: variables, the schema, and the checks beyond it, each bad input with its position. */
class DescriptorLoaderTest {
    private static final String HEAD = "<deployment xmlns=\"urn:troupe:deployment:1\">\n";

    @TempDir
    Path dir;

    private Path write(final String body) throws IOException {
        final Path f = dir.resolve("d.xml");
        Files.writeString(f, HEAD + body + "</deployment>\n");
        return f;
    }

    private static Descriptor load(final Path f, final Map<String, String> props) {
        return DescriptorLoader.load(f, props::get, name -> null);
    }

    private DescriptorException fails(final String body) throws IOException {
        final Path f = write(body);
        return assertThrows(DescriptorException.class, () -> load(f, Map.of()));
    }

    private static String vns(final String... names) {
        final StringBuilder b = new StringBuilder("<virtualNodes>");
        for (final String n : names) {
            b.append("<virtualNode name=\"").append(n).append("\" capacity=\"2\"/>");
        }
        return b.append("</virtualNodes>\n").toString();
    }

    private static final String JVM = "<jvm id=\"j\" count=\"2\"/>";

    @Test
    void shouldReadTheReadyMadeLocalDescriptorAndItsVariables() {
        final Path local = Path.of("..", "descriptors", "local.xml");
        final Descriptor d = load(local, Map.of());
        assertEquals(List.of(new VirtualNodeSpec("workers", 4, false)), d.virtualNodes());
        final ProcessSpec chain = d.mapping().get("workers").getFirst();
        final ProcessSpec.Local here = assertInstanceOf(ProcessSpec.Local.class, chain);
        final ProcessSpec.Jvm jvms = assertInstanceOf(ProcessSpec.Jvm.class, here.child());
        assertEquals(4, jvms.count());
        assertEquals(List.of("-Xmx512m"), jvms.jvmOptions());
        final ProcessSpec.Local bigger = assertInstanceOf(
                ProcessSpec.Local.class,
                load(local, Map.of("heap", "2g")).mapping().get("workers").getFirst());
        assertEquals(
                List.of("-Xmx2g"),
                assertInstanceOf(ProcessSpec.Jvm.class, bigger.child()).jvmOptions(),
                "the node JVMs' heap is a variable");
        assertEquals(
                8,
                load(local, Map.of("jvms", "8"))
                        .mapping()
                        .get("workers")
                        .getFirst()
                        .nodesOffered(),
                "a system property wins over the descriptor's variable");
        assertTrue(d.plan().contains("virtual node workers: wants 4 nodes, offered 4"), d.plan());
        final Descriptor jem3d = load(local, Map.of("vn", "jem3d"));
        assertEquals(
                List.of(new VirtualNodeSpec("jem3d", 4, false)),
                jem3d.virtualNodes(),
                "the virtual node's name is a variable");
        assertEquals(Set.of("jem3d"), jem3d.mapping().keySet());
    }

    @Test
    void shouldReadChainsThroughSshAndBatchSystems() throws IOException {
        final Path f = write(vns("a") + "<mapping><map virtualNode=\"a\"><processRef id=\"front\"/>"
                + "<processRef id=\"s\"/></map></mapping>\n<infrastructure>"
                + "<ssh id=\"front\" host=\"127.0.0.1\" port=\"2222\" user=\"u\" knownHosts=\"accept-new\">"
                + "<processRef id=\"q\"/></ssh>"
                + "<pbs id=\"q\" nodes=\"3\" walltime=\"01:00:00\"><processRef id=\"j\"/></pbs>"
                + "<slurm id=\"s\" nodes=\"2\" tasks=\"4\" partition=\"debug\"><processRef id=\"j\"/></slurm>"
                + JVM + "</infrastructure>\n");
        final Descriptor d = load(f, Map.of());
        final List<ProcessSpec> chains = d.mapping().get("a");
        final ProcessSpec.Ssh ssh = assertInstanceOf(ProcessSpec.Ssh.class, chains.get(0));
        assertEquals(2222, ssh.port());
        assertEquals(ProcessSpec.KnownHosts.ACCEPT_NEW, ssh.knownHosts());
        assertEquals(6, ssh.nodesOffered(), "3 booked nodes x 2 JVMs");
        assertEquals(8, chains.get(1).nodesOffered(), "4 tasks x 2 JVMs");
        final String plan = d.plan();
        assertTrue(
                plan.contains("ssh 'front': u@127.0.0.1:2222")
                        && plan.contains("-> pbs 'q': qsub nodes=3:ppn=1" + " walltime=01:00:00")
                        && plan.contains("--partition=debug"),
                plan);
    }

    @Test
    void shouldPointAtMalformedXml() throws IOException {
        final DescriptorException e = fails(vns("a") + "<mapping>\n  <map virtualNode=\"a\">\n</mapping>\n");
        assertTrue(e.getMessage().startsWith(dir.resolve("d.xml") + ":5:"), e.getMessage());
    }

    @Test
    void shouldPointAtWhatTheSchemaRefuses() throws IOException {
        final DescriptorException e = fails(vns("a") + "<mapping><map virtualNode=\"a\"><processRef id=\"j\"/>"
                + "</map></mapping>\n<infrastructure>\n  <jvm id=\"j\" count=\"zero\"/>\n</infrastructure>\n");
        assertTrue(e.getMessage().contains("d.xml:5:"), e.getMessage());
        assertTrue(e.getMessage().contains("zero"), e.getMessage());
        final DescriptorException unknown = fails(vns("a") + "<mapping><map virtualNode=\"a\"><processRef id=\"j\"/>"
                + "</map></mapping>\n<infrastructure><docker id=\"j\"/></infrastructure>\n");
        assertTrue(unknown.getMessage().contains("docker"), unknown.getMessage());
    }

    @Test
    void shouldNameUnknownReferencesCyclesAndDuplicates() throws IOException {
        final String map = "<mapping><map virtualNode=\"a\"><processRef id=\"x\"/></map></mapping>\n";
        assertTrue(fails(vns("a") + map + "<infrastructure>" + JVM + "</infrastructure>\n")
                .getMessage()
                .contains("no process has the id 'x'"));
        final DescriptorException cycle = fails(vns("a") + map + "<infrastructure>"
                + "<local id=\"x\"><processRef id=\"y\"/></local><local id=\"y\"><processRef id=\"x\"/></local>"
                + "</infrastructure>\n");
        assertTrue(cycle.getMessage().contains("x -> y -> x is a cycle"), cycle.getMessage());
        assertTrue(fails(vns("a") + map + "<infrastructure><jvm id=\"x\"/><jvm id=\"x\"/></infrastructure>\n")
                .getMessage()
                .contains("two processes have the id 'x'"));
        assertTrue(fails(vns("a", "b") + map + "<infrastructure><jvm id=\"x\"/></infrastructure>\n")
                .getMessage()
                .contains("virtual node 'b' is mapped onto nothing"));
        assertTrue(fails(vns("a") + "<mapping><map virtualNode=\"c\"><processRef id=\"x\"/></map></mapping>\n"
                        + "<infrastructure><jvm id=\"x\"/></infrastructure>\n")
                .getMessage()
                .contains("virtual node 'c'"));
    }

    @Test
    void shouldWantAJvmAfterABatchStep() throws IOException {
        final DescriptorException e = fails(vns("a") + "<mapping><map virtualNode=\"a\"><processRef id=\"q\"/></map>"
                + "</mapping>\n<infrastructure><slurm id=\"q\"><processRef id=\"s\"/></slurm>"
                + "<ssh id=\"s\" host=\"h\"><processRef id=\"j\"/></ssh>" + JVM + "</infrastructure>\n");
        assertTrue(e.getMessage().contains("<slurm id=\"q\"> must refer to a <jvm>"), e.getMessage());
    }

    @Test
    void shouldRefuseAnEnvironmentNameAShellWouldRun() throws IOException {
        final DescriptorException e = fails(vns("a") + "<mapping><map virtualNode=\"a\"><processRef id=\"j\"/></map>"
                + "</mapping>\n<infrastructure><jvm id=\"j\"><env name=\"X;rm -rf ~\" value=\"1\"/></jvm>"
                + "</infrastructure>\n");
        assertTrue(
                e.getMessage()
                        .contains("<env name=\"X;rm -rf ~\"> of jvm 'j' is not a valid environment variable" + " name"),
                e.getMessage());
    }

    @Test
    void shouldReadEveryReadyMadeDescriptor() throws IOException {
        try (var files = Files.list(Path.of("../descriptors"))) {
            final List<Path> xml = files.filter(f -> f.toString().endsWith(".xml") && !f.endsWith("pom.xml"))
                    .sorted()
                    .toList();
            assertEquals(6, xml.size(), xml.toString());
            for (final Path f : xml) {
                assertFalse(DescriptorLoader.load(f).plan().isBlank(), f.toString());
            }
        }
    }

    @Test
    void shouldWantEitherACapacityOrGreed() throws IOException {
        final String rest = "<mapping><map virtualNode=\"a\"><processRef id=\"j\"/></map></mapping>\n"
                + "<infrastructure>" + JVM + "</infrastructure>\n";
        assertTrue(fails("<virtualNodes><virtualNode name=\"a\"/></virtualNodes>\n" + rest)
                .getMessage()
                .contains("not neither"));
        assertTrue(
                fails("<virtualNodes><virtualNode name=\"a\" capacity=\"1\" greedy=\"true\"/></virtualNodes>\n" + rest)
                        .getMessage()
                        .contains("not both"));
        final Path greedy = write("<virtualNodes><virtualNode name=\"a\" greedy=\"true\"/></virtualNodes>\n" + rest);
        assertTrue(load(greedy, Map.of()).plan().contains("wants all it is offered, offered 2"));
    }

    @Test
    void shouldNameAVariableThatIsNowhere() throws IOException {
        final DescriptorException e = fails(vns("a") + "<mapping><map virtualNode=\"a\"><processRef id=\"j\"/>"
                + "</map></mapping>\n<infrastructure><jvm id=\"j\" count=\"${missing}\"/></infrastructure>\n");
        assertTrue(
                e.getMessage().contains("d.xml:4:") && e.getMessage().contains("no variable ${missing}"),
                e.getMessage());
    }

    @Test
    void shouldTakeAVariablesValueAsTextNeverAsMarkup() throws IOException {
        final Path f = write(vns("a") + "<mapping><map virtualNode=\"a\"><processRef id=\"front\"/></map></mapping>\n"
                + "<infrastructure><ssh id=\"front\" host=\"${h}\" user=\"u\"><processRef id=\"j\"/></ssh>"
                + JVM + "</infrastructure>\n");
        final String hostile = "h\" knownHosts=\"ignore";
        final ProcessSpec.Ssh ssh = assertInstanceOf(
                ProcessSpec.Ssh.class,
                load(f, Map.of("h", hostile)).mapping().get("a").getFirst());
        assertEquals(hostile, ssh.host(), "the value, quote and all, is the host's name");
        assertEquals(ProcessSpec.KnownHosts.STRICT, ssh.knownHosts(), "no attribute came in with it");
        final Path elements = write(vns("a") + "<mapping><map virtualNode=\"a\"><processRef id=\"j\"/></map>"
                + "</mapping>\n<infrastructure><jvm id=\"j\" count=\"${n}\"/></infrastructure>\n");
        final DescriptorException e = assertThrows(
                DescriptorException.class, () -> load(elements, Map.of("n", "2\"/><jvm id=\"k\" count=\"9")));
        assertTrue(
                e.getMessage().contains("count"), "a count that is not a number, not a second jvm: " + e.getMessage());
    }

    @Test
    void shouldSayWhenTheFileCannotBeRead() {
        final DescriptorException e =
                assertThrows(DescriptorException.class, () -> DescriptorLoader.load(dir.resolve("absent.xml")));
        assertTrue(e.getMessage().contains("absent.xml"), e.getMessage());
    }
}
