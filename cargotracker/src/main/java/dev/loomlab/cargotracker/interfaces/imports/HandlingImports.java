package dev.loomlab.cargotracker.interfaces.imports;

import dev.loomlab.cargotracker.application.Clocks;
import dev.loomlab.cargotracker.application.imports.HandlingImport;
import dev.loomlab.cargotracker.application.imports.ImportFiles;
import dev.loomlab.cargotracker.application.imports.ImportLog;
import dev.loomlab.cargotracker.application.imports.ImportedLine;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.domain.shared.NotFoundException;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.JobExecution;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * Starts CSV imports of handling events and reports on them. A file that is not our CSV at all
 * (empty, not text, wrong header, no event lines) is refused at once and nothing is stored; a file
 * that is ours is imported by the {@code handling-import} batch job, line by line. The job's steps
 * (reader, checker, writer) are the rest of this package; each line goes through the application's
 * {@code HandlingEventService} like a report from any other door.
 */
@ApplicationScoped
public class HandlingImports {

    public static final String JOB = "handling-import";
    public static final int MAX_BYTES = 2 * 1024 * 1024;
    /** Event lines per import; each becomes a stored line record, and an accepted one an event. */
    public static final int MAX_LINES = 10_000;
    /** Rejected lines per report page, by default and at most. */
    public static final int DEFAULT_PAGE = 100;
    public static final int MAX_PAGE = 1_000;

    @Inject
    ImportLog log;
    @Inject
    ImportFiles files;
    @Inject
    Clock clock;

    /**
     * Checks the file, keeps it until its job has read it ({@link ImportFiles}) and starts the job; returns
     * the import's id.
     * Deliberately not transactional: the job runs its own chunk transactions on another thread,
     * and Payara refuses them when the job is started from inside a transactional method.
     */
    public String start(byte[] content) {
        String text = decode(content);
        String[] lines = text.split("\\R", -1);
        HandlingCsvFormat.requireHeader(lines[0]);
        HandlingCsvFormat.requireEventLines(lines, MAX_LINES);
        UUID id = UUID.randomUUID();
        String file = files.keep(id.toString(), content);
        HandlingImport upload = new HandlingImport(id, file, Clocks.now(clock));
        Properties parameters = new Properties();
        parameters.setProperty("file", file);
        parameters.setProperty("importId", id.toString());
        upload.startedAs(jobOperator().start(JOB, parameters));
        log.record(upload);
        return upload.id();
    }

    /** The import's status and counts, and one page of its rejected lines (by line number). */
    public ImportReport report(String importId, int offset, int limit) {
        if (offset < 0) {
            throw new DomainException("offset", "offset must be 0 or more, was " + offset + ".");
        }
        if (limit < 1 || limit > MAX_PAGE) {
            throw new DomainException("limit", "limit must be in 1.." + MAX_PAGE + ", was " + limit + ".");
        }
        HandlingImport upload = log.find(importId)
                .orElseThrow(() -> new NotFoundException("importId", "No import with id " + importId + " is known."));
        long accepted = log.countLines(importId, ImportedLine.Outcome.ACCEPTED);
        long rejected = log.countLines(importId, ImportedLine.Outcome.REJECTED);
        List<ImportReport.RejectedLine> page = log.rejectedLines(importId, offset, limit).stream()
                .map(l -> new ImportReport.RejectedLine(l.lineNumber(), l.rawLine(), l.message()))
                .toList();
        return new ImportReport(importId, upload.executionId(), status(upload), (int) accepted, (int) rejected,
                offset, limit, page);
    }

    /** The job's batch status while the server that ran it is up; the repository is in memory. */
    private static String status(HandlingImport upload) {
        try {
            JobExecution execution = jobOperator().getJobExecution(upload.executionId());
            if (upload.id().equals(execution.getJobParameters().getProperty("importId"))) {
                return execution.getBatchStatus().name();
            }
        } catch (NoSuchJobExecutionException e) {
            // fall through: run by an earlier server process
        }
        return "UNKNOWN_AFTER_RESTART";
    }

    private static String decode(byte[] content) {
        if (content == null || content.length == 0) {
            throw new DomainException("file", "The upload is empty: send a CSV file whose first line is '"
                    + HandlingCsvFormat.HEADER + "'.");
        }
        if (content.length > MAX_BYTES) {
            throw new DomainException("file", "The file is larger than " + MAX_BYTES + " bytes: split it into smaller files.");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(content)).toString();
        } catch (CharacterCodingException e) {
            throw new DomainException("file", "The file is not UTF-8 text: send a CSV file.");
        }
    }

    private static JobOperator jobOperator() {
        return BatchRuntime.getJobOperator();
    }
}
