import org.troupe.apps.jem3d.Jem3dWireClasses;
import org.troupe.core.spi.WireClasses;

/**
 * Jem3D, the Maxwell solver on tetrahedra. {@code Jem3dRun} runs it from code, {@code Jem3dMain} is {@code bin/jem3d}.
 *
 * <p>An example of what an application in a named module opens: its active objects and messages to the core (which
 * proxies them) and to serialization (which writes them), its command class to picocli.
 */
module org.troupe.apps.jem3d {
    // Jem3dRun and the active subdomains show core and deployment types in the exported package.
    requires transitive org.troupe.groups;
    requires transitive org.troupe.deploy;
    requires info.picocli;
    requires me.tongfei.progressbar;
    requires org.knowm.xchart;
    requires java.desktop;
    requires org.slf4j;
    // Jem3dMain handles Ctrl-C with sun.misc.Signal.
    requires jdk.unsupported;

    exports org.troupe.apps.jem3d;

    opens org.troupe.apps.jem3d to
            org.troupe.core,
            org.troupe.serialization,
            info.picocli;

    provides WireClasses with
            Jem3dWireClasses;
}
