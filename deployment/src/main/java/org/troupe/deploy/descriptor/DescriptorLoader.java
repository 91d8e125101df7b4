package org.troupe.deploy.descriptor;

import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.Unmarshaller;
import jakarta.xml.bind.ValidationEvent;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;

/**
 * Reads a deployment descriptor: substitutes {@code ${name}} (a system property, else an environment variable,
 * else the descriptor's own {@code <variable>}), validates the result against troupe-deployment-1.xsd, and checks
 * what a schema cannot: unique ids, references that resolve, chains that end in a {@code <jvm>} without cycles,
 * and a mapping for every virtual node. Every error names the file, line and column, and what to do.
 */
public final class DescriptorLoader {
    /** The schema, on the class path beside this class. */
    public static final String SCHEMA = "/org/troupe/deploy/troupe-deployment-1.xsd";

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]*)}");
    private static final int MAX_VARIABLE_DEPTH = 10;

    private final UnaryOperator<String> systemProperties;
    private final UnaryOperator<String> environment;

    private DescriptorLoader(final UnaryOperator<String> systemProperties, final UnaryOperator<String> environment) {
        this.systemProperties = systemProperties;
        this.environment = environment;
    }

    /** Loads {@code file} with this JVM's system properties and environment for its variables. */
    public static Descriptor load(final Path file) {
        return new DescriptorLoader(System::getProperty, System::getenv).read(file);
    }

    /**
     * As {@link #load(Path)}, with {@code variables} first: they win over system properties, the environment and
     * the descriptor's own values (what a program deploying a descriptor sets).
     */
    public static Descriptor load(final Path file, final Map<String, String> variables) {
        return new DescriptorLoader(
                        name -> variables.containsKey(name) ? variables.get(name) : System.getProperty(name),
                        System::getenv)
                .read(file);
    }

    /** As {@link #load(Path)}, with the given lookups instead of the JVM's (for tests). */
    static Descriptor load(
            final Path file, final UnaryOperator<String> systemProperties, final UnaryOperator<String> environment) {
        return new DescriptorLoader(systemProperties, environment).read(file);
    }

    private Descriptor read(final Path file) {
        final String raw;
        try {
            raw = Files.readString(file);
        } catch (IOException e) {
            throw new DescriptorException("Cannot read the descriptor " + file + ": " + e.getMessage(), e);
        }
        final String text = substitute(file, raw, ownVariables(file, raw));
        return check(file, unmarshal(file, text));
    }

    // --- Variables ---

    /** The descriptor's {@code <variable>}s, read before validation (their values may hold variables too). */
    private static Map<String, String> ownVariables(final Path file, final String raw) {
        final Map<String, String> vars = new HashMap<>();
        try {
            final XMLInputFactory f = XMLInputFactory.newFactory();
            f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
            final XMLStreamReader r = f.createXMLStreamReader(new StringReader(raw));
            while (r.hasNext()) {
                if (r.next() == XMLStreamConstants.START_ELEMENT
                        && r.getLocalName().equals("variable")
                        && XmlModel.NS.equals(r.getNamespaceURI())) {
                    final String name = r.getAttributeValue(null, "name");
                    final String value = r.getAttributeValue(null, "value");
                    if (name != null && value != null) {
                        vars.put(name, value);
                    }
                }
            }
        } catch (XMLStreamException e) {
            final Location at = e.getLocation();
            throw new DescriptorException(where(
                            file, at == null ? -1 : at.getLineNumber(), at == null ? -1 : at.getColumnNumber())
                    + "not well-formed XML: "
                    + e.getMessage().replaceFirst("^ParseError at \\[row,col\\]:\\[\\d+,\\d+]\\s*Message:\\s*", ""));
        }
        return vars;
    }

    private String substitute(final Path file, final String text, final Map<String, String> own) {
        final StringBuilder out = new StringBuilder(text.length());
        final Matcher m = VARIABLE.matcher(text);
        int last = 0;
        while (m.find()) {
            out.append(text, last, m.start());
            // Escaped: a value is text wherever it lands, so a quote in it cannot end its attribute and add another
            // (a host named h" knownHosts="ignore must not turn host-key checking off).
            out.append(escapeXml(value(file, text, m.start(), m.group(1), own, 0)));
            last = m.end();
        }
        return out.append(text, last, text.length()).toString();
    }

    private static String escapeXml(final String value) {
        return value.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;")
                .replace("'", "&apos;");
    }

    private String value(
            final Path file,
            final String text,
            final int at,
            final String name,
            final Map<String, String> own,
            final int depth) {
        String v = systemProperties.apply(name);
        if (v == null) {
            v = environment.apply(name);
        }
        if (v == null) {
            v = own.get(name);
        }
        if (v == null || depth > MAX_VARIABLE_DEPTH) {
            final int line =
                    (int) text.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
            final int column = at - text.lastIndexOf('\n', at - 1);
            throw new DescriptorException(where(file, line, column)
                    + (v == null
                            ? "no variable ${" + name + "}:"
                                    + " define it with <variable name=\"" + name + "\" value=\"...\"/>, -D" + name
                                    + "=... or the"
                                    + " environment"
                            : "${" + name + "} refers to itself through its values"));
        }
        final Matcher inner = VARIABLE.matcher(v);
        final StringBuilder out = new StringBuilder();
        int last = 0;
        while (inner.find()) {
            out.append(v, last, inner.start()).append(value(file, text, at, inner.group(1), own, depth + 1));
            last = inner.end();
        }
        return out.append(v, last, v.length()).toString();
    }

    // --- Schema ---

    private static XmlModel.Deployment unmarshal(final Path file, final String text) {
        final ValidationEvent[] first = new ValidationEvent[1];
        try {
            final Schema schema = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                    .newSchema(DescriptorLoader.class.getResource(SCHEMA));
            final Unmarshaller u =
                    JAXBContext.newInstance(XmlModel.Deployment.class).createUnmarshaller();
            u.setSchema(schema);
            u.setEventHandler(event -> {
                if (first[0] == null) {
                    first[0] = event;
                }
                return false;
            });
            final StreamSource source = new StreamSource(new StringReader(text), file.toString());
            return u.unmarshal(source, XmlModel.Deployment.class).getValue();
        } catch (JAXBException e) {
            if (first[0] != null) {
                final var at = first[0].getLocator();
                throw new DescriptorException(
                        where(file, at.getLineNumber(), at.getColumnNumber())
                                + first[0].getMessage() + " (the format is "
                                + SCHEMA.substring(SCHEMA.lastIndexOf('/') + 1)
                                + ", namespace " + XmlModel.NS + ")",
                        e);
            }
            throw new DescriptorException(file + ": cannot read the descriptor: " + e, e);
        } catch (SAXException e) {
            throw new IllegalStateException("The descriptor schema " + SCHEMA + " does not load: " + e, e);
        }
    }

    // --- What the schema cannot check ---

    private static Descriptor check(final Path file, final XmlModel.Deployment d) {
        final Map<String, XmlModel.Process> byId = new LinkedHashMap<>();
        for (final XmlModel.Process p : d.processes) {
            if (byId.putIfAbsent(p.id, p) != null) {
                throw new DescriptorException(where(file, p.where) + "two processes have the id '" + p.id
                        + "': ids name processes, so each must be unique");
            }
        }
        final Map<String, ProcessSpec> specs = new HashMap<>();
        final List<VirtualNodeSpec> virtualNodes = new ArrayList<>();
        final Set<String> names = new HashSet<>();
        for (final XmlModel.VirtualNode vn : d.virtualNodes) {
            final boolean greedy = Boolean.TRUE.equals(vn.greedy);
            if (greedy == (vn.capacity != null)) {
                throw new DescriptorException(where(file, vn.where) + "virtual node '" + vn.name + "' needs either"
                        + " capacity=\"N\" (the nodes it wants) or greedy=\"true\" (all it is offered), not "
                        + (greedy ? "both" : "neither"));
            }
            if (!names.add(vn.name)) {
                throw new DescriptorException(
                        where(file, vn.where) + "virtual node '" + vn.name + "' is declared" + " twice");
            }
            virtualNodes.add(new VirtualNodeSpec(vn.name, greedy ? 0 : count(vn.capacity), greedy));
        }
        final Map<String, List<ProcessSpec>> mapping = new LinkedHashMap<>();
        for (final XmlModel.MapEntry e : d.mapping) {
            if (!names.contains(e.virtualNode)) {
                throw new DescriptorException(where(file, e.where) + "the mapping names virtual node '" + e.virtualNode
                        + "', which <virtualNodes> does not declare (declared: " + names + ")");
            }
            final List<ProcessSpec> chains = mapping.computeIfAbsent(e.virtualNode, k -> new ArrayList<>());
            for (final XmlModel.Ref ref : e.processRefs) {
                chains.add(spec(file, ref, byId, specs, new ArrayList<>()));
            }
        }
        for (final VirtualNodeSpec vn : virtualNodes) {
            if (!mapping.containsKey(vn.name())) {
                throw new DescriptorException(file + ": virtual node '" + vn.name() + "' is mapped onto nothing:"
                        + " add <map virtualNode=\"" + vn.name() + "\"> with a processRef to <mapping>");
            }
        }
        return new Descriptor(file, List.copyOf(virtualNodes), Map.copyOf(mapping));
    }

    /** The checked process {@code ref} names; {@code path} holds the chain so far, to find cycles. */
    private static ProcessSpec spec(
            final Path file,
            final XmlModel.Ref ref,
            final Map<String, XmlModel.Process> byId,
            final Map<String, ProcessSpec> done,
            final List<String> path) {
        final XmlModel.Process p = byId.get(ref.id);
        if (p == null) {
            throw new DescriptorException(where(file, ref.where) + "no process has the id '" + ref.id + "' (processes: "
                    + byId.keySet() + ")");
        }
        if (path.contains(p.id)) {
            throw new DescriptorException(where(file, p.where) + "the process chain " + String.join(" -> ", path)
                    + " -> " + p.id + " is a cycle: a chain must end in a <jvm>");
        }
        final ProcessSpec known = done.get(p.id);
        if (known != null) {
            return known;
        }
        path.add(p.id);
        final ProcessSpec spec = switch (p) {
            case XmlModel.Jvm j ->
                new ProcessSpec.Jvm(
                        j.id,
                        text(j.javaHome),
                        text(j.classpath),
                        List.copyOf(j.jvmOptions),
                        env(file, j),
                        count(j.count),
                        count(j.nodesPerJvm));
            case XmlModel.Ssh s ->
                new ProcessSpec.Ssh(
                        s.id,
                        s.host,
                        s.port == null ? 22 : s.port,
                        text(s.user),
                        text(s.privateKey),
                        ProcessSpec.KnownHosts.of(s.knownHosts),
                        Boolean.TRUE.equals(s.stage),
                        spec(file, s.child, byId, done, path));
            case XmlModel.Pbs b ->
                new ProcessSpec.Pbs(
                        b.id,
                        count(b.nodes),
                        count(b.processorsPerNode),
                        b.walltime == null ? "00:10:00" : b.walltime,
                        text(b.queue),
                        spec(file, b.child, byId, done, path));
            case XmlModel.Slurm s ->
                new ProcessSpec.Slurm(
                        s.id,
                        count(s.nodes),
                        count(s.tasks),
                        s.time == null ? "00:10:00" : s.time,
                        text(s.partition),
                        spec(file, s.child, byId, done, path));
            case XmlModel.Launcher l -> new ProcessSpec.Local(l.id, spec(file, l.child, byId, done, path));
            default -> throw new IllegalStateException("unknown process element " + p.getClass());
        };
        if (spec instanceof ProcessSpec.Pbs || spec instanceof ProcessSpec.Slurm) {
            ProcessSpec next = ((ProcessSpec.Launcher) spec).child();
            while (next instanceof ProcessSpec.Local l) {
                next = l.child();
            }
            if (!(next instanceof ProcessSpec.Jvm)) {
                throw new DescriptorException(
                        where(file, p.where) + "<" + (spec instanceof ProcessSpec.Pbs ? "pbs" : "slurm") + " id=\""
                                + p.id + "\"> must refer to a <jvm> (a batch job starts JVMs on the nodes"
                                + " it books), not to '" + next.id() + "'");
            }
        }
        path.removeLast();
        done.put(p.id, spec);
        return spec;
    }

    private static int count(final BigInteger n) {
        if (n == null) {
            return 1;
        }
        return n.bitLength() < 31 ? n.intValue() : Integer.MAX_VALUE;
    }

    private static String text(final String s) {
        return s == null ? "" : s.strip();
    }

    private static Map<String, String> env(final Path file, final XmlModel.Jvm jvm) {
        final Map<String, String> out = new LinkedHashMap<>();
        for (final XmlModel.Variable v : jvm.env) {
            if (!v.name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new DescriptorException(where(file, jvm.where) + "<env name=\"" + v.name + "\"> of jvm '"
                        + jvm.id + "' is not a valid environment variable name (letters, digits and _, not starting"
                        + " with a digit)");
            }
            out.put(v.name, v.value);
        }
        return Map.copyOf(out);
    }

    private static String where(final Path file, final Locator at) {
        return at == null ? file + ": " : where(file, at.getLineNumber(), at.getColumnNumber());
    }

    private static String where(final Path file, final int line, final int column) {
        return line < 0 ? file + ": " : file + ":" + line + ":" + column + ": ";
    }
}
