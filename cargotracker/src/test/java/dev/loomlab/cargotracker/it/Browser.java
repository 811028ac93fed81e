package dev.loomlab.cargotracker.it;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Debian Chromium driven by Debian's chromedriver, on ports of the module's range, with a
 * throw-away profile. Small verbs for the journey: open, pick, type, click, read, screenshot.
 *
 * <p>Every button and link of CargoTracker's pages leads to a new page (Faces postbacks and
 * redirects, no partial AJAX updates), so {@link #clickToNextPage} waits until the browser shows
 * the next document before it returns; reads after it never see, or hold, an element of the page
 * that was replaced (the cause of the old "stale element" failures on a slow server).
 */
final class Browser implements AutoCloseable {

    static final Dimension DESKTOP = new Dimension(1280, 900);
    static final Dimension PHONE = new Dimension(412, 860);
    /** Generous: the machine may be shared with other builds, and the wait ends on an event, not a clock. */
    private static final Duration NAVIGATION_TIMEOUT = Duration.ofSeconds(60);

    private final ChromeDriverService service;
    private final WebDriver driver;
    private final String base;
    private final Path screenshots;
    private final Path profile;
    private final AtomicInteger pageMarks = new AtomicInteger();

    Browser(String base, Path screenshots, int driverPort, int devToolsPort) throws IOException {
        this.base = base.endsWith("/") ? base : base + "/";
        this.screenshots = Files.createDirectories(screenshots);
        this.profile = Files.createTempDirectory("cargotracker-chromium-");
        this.service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(System.getProperty("webdriver.chrome.driver", "/usr/bin/chromedriver")))
                .usingPort(driverPort)
                .build();
        ChromeOptions options = new ChromeOptions()
                .setBinary(System.getProperty("cargotracker.chromium", "/usr/bin/chromium"))
                .addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--no-first-run", "--user-data-dir=" + profile, "--remote-debugging-port=" + devToolsPort,
                        "--window-size=" + DESKTOP.width + "," + DESKTOP.height, "--hide-scrollbars");
        this.driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
    }

    void open(String path) {
        driver.get(base + path);
    }

    void resize(Dimension size) {
        driver.manage().window().setSize(size);
    }

    void pick(String selectId, String value) {
        new Select(find(selectId)).selectByValue(value);
    }

    String picked(String selectId) {
        return new Select(find(selectId)).getFirstSelectedOption().getAttribute("value");
    }

    void type(String inputId, String text) {
        WebElement input = find(inputId);
        input.clear();
        input.sendKeys(text);
    }

    /** Date and date-time inputs: typing depends on the browser's locale, setting the value does not. */
    void setValue(String inputId, String value) {
        script().executeScript("arguments[0].value = arguments[1];", find(inputId), value);
    }

    /** Drops an attribute such as {@code min}, to get past the browser's own checks to the server's. */
    void removeAttribute(String id, String attribute) {
        script().executeScript("arguments[0].removeAttribute(arguments[1]);", find(id), attribute);
    }

    /**
     * Clicks a button or link and waits until the page it leads to has loaded. Each document gets
     * a fresh mark before the click; the wait ends when the window holds a document without it
     * (a new page, also after a postback to the same URL) and that document is complete.
     */
    void clickToNextPage(By by) {
        String mark = "page-" + pageMarks.incrementAndGet();
        script().executeScript("window.loomlabPageMark = arguments[0];", mark);
        driver.findElement(by).click();
        try {
            new WebDriverWait(driver, NAVIGATION_TIMEOUT)
                    // while the old document unloads the probe may find no script context: ask the new one
                    .ignoring(WebDriverException.class)
                    .until(d -> (Boolean) script().executeScript(
                            "return window.loomlabPageMark !== arguments[0] && document.readyState === 'complete';", mark));
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("clicking " + by + " led to no new page within " + NAVIGATION_TIMEOUT.toSeconds()
                    + " s; at " + describe(), e);
        }
    }

    void clickToNextPage(String id) {
        find(id);
        clickToNextPage(By.id(id));
    }

    private JavascriptExecutor script() {
        return (JavascriptExecutor) driver;
    }

    /** The text of an element, waiting for it to appear (the page may still be loading after a redirect). */
    String text(String id) {
        return find(id).getText();
    }

    /**
     * The element with this id, waiting for it: after a click the next page may still be loading,
     * and every step of the journey waits for what it needs instead of sleeping.
     */
    private WebElement find(String id) {
        try {
            return new WebDriverWait(driver, Duration.ofSeconds(30))
                    .until(ExpectedConditions.presenceOfElementLocated(By.id(id)));
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("no element #" + id + " at " + describe(), e);
        }
    }

    /** Whether the page's Faces messages mention {@code text} (read after the page has loaded, so no wait). */
    boolean showsMessage(String text) {
        return messages().contains(text);
    }

    /** The page's Faces messages, or "" when there are none. */
    String messages() {
        List<WebElement> found = driver.findElements(By.id("messages"));
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    /** Where the browser is and what it shows, for assertion messages. */
    String describe() {
        String body = driver.findElement(By.tagName("body")).getText();
        return driver.getCurrentUrl() + " shows: " + (body.length() > 600 ? body.substring(0, 600) + "..." : body);
    }

    String url() {
        return driver.getCurrentUrl();
    }

    void waitForUrl(String fragment) {
        try {
            new WebDriverWait(driver, Duration.ofSeconds(30)).until(ExpectedConditions.urlContains(fragment));
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("never reached " + fragment + "; at " + describe(), e);
        }
    }

    void waitForText(String id, String text) {
        try {
            new WebDriverWait(driver, Duration.ofSeconds(30))
                    .until(ExpectedConditions.textToBePresentInElementLocated(By.id(id), text));
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("no '" + text + "' in #" + id + " at " + describe(), e);
        }
    }

    Path screenshot(String name) {
        try {
            Path file = screenshots.resolve(name + ".png");
            Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
            deleteQuietly(profile);
        }
    }

    private static void deleteQuietly(Path folder) {
        try (var files = Files.walk(folder)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp profile is harmless
        }
    }
}
