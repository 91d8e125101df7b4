package org.troupe.tests.monitor;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium driven by its chromedriver (their paths given, so Selenium downloads nothing), for
 * the console's tests; closed with the test. Where they are not installed, the test is skipped, saying so in one
 * line.
 */
final class Browser implements AutoCloseable {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    /** Where screenshots go: the tests' output. */
    static final Path SCREENSHOTS = Path.of("target/console-screenshots");

    private final ChromeDriverService service;
    private final ChromeDriver driver;

    private Browser() throws IOException {
        service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .withLogFile(new File("target/chromedriver.log"))
                .build();
        service.start();
        final ChromeOptions options = new ChromeOptions()
                .setBinary(CHROMIUM.toFile())
                .addArguments(
                        "--headless=new",
                        "--no-sandbox",
                        "--disable-dev-shm-usage",
                        "--disable-gpu",
                        "--window-size=1400,1800");
        ChromeDriver d = null;
        try {
            d = new ChromeDriver(service, options);
        } finally {
            if (d == null) {
                service.stop();
            }
        }
        driver = d;
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
    }

    /** A browser, or the test skipped if Chromium or its driver is missing. */
    static Browser open() throws IOException {
        assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER),
                "skipped: Chromium and its driver are not installed (apt-get install chromium chromium-driver)");
        return new Browser();
    }

    WebDriver driver() {
        return driver;
    }

    void get(final String url) {
        driver.get(url);
    }

    /** Waits up to {@code limit} for {@code condition} to hold (not null, not false), failing with {@code what}. */
    <T> T await(final Duration limit, final String what, final Function<WebDriver, T> condition)
            throws InterruptedException {
        final long deadline = System.nanoTime() + limit.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                final T value = condition.apply(driver);
                if (value != null && !Boolean.FALSE.equals(value)) {
                    return value;
                }
            } catch (WebDriverException | NumberFormatException e) { // the page redrew what was being read
                last = e;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the console did not show " + what + " within " + limit.toSeconds() + " s", last);
    }

    List<WebElement> all(final String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** The text of the first element {@code css} selects, or "" if none. */
    String text(final String css) {
        final List<WebElement> found = all(css);
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    /** Saves what the page shows now as {@code name}.png among the tests' screenshots; returns where. */
    Path screenshot(final String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        final Path to = SCREENSHOTS.resolve(name + ".png");
        Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), to, StandardCopyOption.REPLACE_EXISTING);
        return to;
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
        }
    }
}
